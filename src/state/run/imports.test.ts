import { readFileSync } from "node:fs";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { beforeEach, describe, expect, it } from "vitest";
import { RunStore } from "../../engine/store/db.ts";
import { importFiles, isJsonLines } from "./imports.ts";
import { runStore, setRunStore } from "../storage/runStore.ts";
import { useStudio } from "../slices/store.ts";

const initial = useStudio.getState();
const fixture = (name: string) =>
  readFileSync(new URL(`../../engine/run/fixtures/${name}`, import.meta.url), "utf8");
/** One export as one line, as History's "as JSON lines" writes it. */
const line = (text: string) => JSON.stringify(JSON.parse(text) as unknown);
let n = 0;

beforeEach(() => {
  setRunStore(new RunStore(`imports-${n++}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  useStudio.setState(initial, true);
});

describe("importFiles", () => {
  it("tells JSON-lines files by their name", () => {
    expect(
      ["a.jsonl", "B.NDJSON", "a.json", "jsonl.txt"].map((name) => isJsonLines({ name })),
    ).toEqual([true, true, false, false]);
  });

  it("stores each line of a JSON-lines file as its own run and names the bad lines", async () => {
    const text = `${line(fixture("run-v4-nested.json"))}\n\n${line(fixture("run-v1.json"))}\n{"format":"nope"}\n`;
    await importFiles([new File([text], "runs.jsonl")]);
    const rows = await runStore()!.listRuns();
    // Each run keeps its own kind: History's export brings runs back as they were listed.
    expect(rows.map((r) => [r.key, r.kind]).sort()).toEqual([
      ["nested", "planned"],
      ["run-2026-01-01-fixture", "planned"],
    ]);
    // Nothing on screen was replaced: no run opened, no undo step.
    expect(useStudio.getState().openKey).toBeNull();
    expect(useStudio.getState().history.past).toHaveLength(0);
    expect(useStudio.getState().notice).toMatch(
      /^Stored 2 runs from runs\.jsonl in History; what is on screen is unchanged\. Could not open runs\.jsonl line 4: /,
    );
  });

  it("brings a run already stored back as that run, not a second copy", async () => {
    const text = line(fixture("run-v4-nested.json"));
    await importFiles([new File([text], "a.jsonl")]);
    await importFiles([new File([`${text}\n`], "b.jsonl")]);
    expect((await runStore()!.listRuns()).map((r) => r.key)).toEqual(["nested"]);
    expect(useStudio.getState().notice).toBe(
      "Stored 1 run from b.jsonl in History; what is on screen is unchanged.",
    );
  });

  it("confirms the run file it opened", async () => {
    await importFiles([new File([fixture("run-v4-nested.json")], "nested.json")]);
    expect(useStudio.getState().openKey).toBe("nested");
    expect(useStudio.getState().notice).toMatch(
      /^Opened nested\.json: ".+" \(\d+ steps?.*\), now stored in History\./,
    );
  });

  it("refuses a file over 50 MB and names a file that cannot be read, storing nothing", async () => {
    const big = (name: string) => {
      const file = new File(["{}"], name);
      Object.defineProperty(file, "size", { value: 51 * 1024 * 1024 });
      return file;
    };
    const unreadable = new File([""], "gone.json");
    unreadable.text = () => Promise.reject(new Error("the file was moved"));
    await importFiles([big("a.jsonl"), big("b.json"), unreadable]);
    expect(await runStore()!.listRuns()).toEqual([]);
    expect(useStudio.getState().notice).toBe(
      "Could not open a.jsonl: That file is larger than 50 MB; it is not a Conductor Studio export.; " +
        "b.json: That file is larger than 50 MB; it is not a Conductor Studio export.; " +
        "gone.json: The file could not be read: the file was moved",
    );
  });
});
