import { useStudio } from "../../state/slices/store.ts";
import { openUserFile } from "../files/openFile.ts";

/** The example runs shipped in public/examples (recorded by scripts/record-examples.ts). */
export const EXAMPLES = [
  { file: "three-step.json", label: "A three-step workflow", testId: "example-three-step" },
  {
    file: "nested-two-rounds.json",
    label: "A nested workflow, two rounds",
    testId: "example-nested",
  },
] as const;

/** Every example run's id starts so: the studio marks such a run as an example while it is open. */
const EXAMPLE_ID = /^example-/;

/** Whether a run id is one of the shipped examples' (an import of a copy keeps its id). */
export function isExampleRun(id: string): boolean {
  return EXAMPLE_ID.test(id);
}

/**
 * Fetches a shipped example and opens it as a file the user chose would open: the import rules
 * apply (checked in full, stored in History, and a draft is not replaced without asking).
 */
export async function openExample(file: string): Promise<void> {
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}examples/${file}`);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const text = await res.text();
    openUserFile(new File([text], file, { type: "application/json" }));
  } catch (e: unknown) {
    const why = e instanceof Error ? e.message : String(e);
    useStudio.getState().setNotice(`Could not load the example ${file}: ${why}`);
  }
}
