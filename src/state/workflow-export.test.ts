import { beforeEach, describe, expect, it } from "vitest";
import { docFromSteps } from "../engine/graph/document.ts";
import { importRunChecked } from "../engine/run/validate.ts";
import type { Worker } from "../engine/schema/worker.ts";
import { exportText } from "./run/files.ts";
import { useStudio } from "./slices/store.ts";

// A workflow is exported and opened again whatever state its steps' workers are in: nothing a user
// sketched is lost because a worker is not chosen yet or left the pool.

const initial = useStudio.getState();
const worker = (id: string): Worker => ({
  id,
  name: `Worker ${id}`,
  kind: "openai",
  baseURL: "http://127.0.0.1:9/v1",
  model: `m-${id}`,
  temperature: 0.2,
  maxTokens: 256,
  prefill: false,
});

beforeEach(() => useStudio.setState(initial, true));

function exportWith(workers: string[]) {
  const s = useStudio.getState();
  s.setPool([worker("a"), worker("b")]);
  s.setQuestion("Is 391 prime?");
  s.resetDoc(
    docFromSteps(workers.map((w, i) => ({ worker: w, subtask: `Task ${i}`, access: [] }))),
  );
  return exportText(useStudio.getState(), "workflow");
}

describe("exporting a workflow", () => {
  it("with every worker in the pool writes the Conductor's numbers and what they meant", () => {
    const read = importRunChecked(exportWith(["b", "a"]));
    expect(read.ok && read.record.rounds[0]?.lists).toEqual({
      model_id: [1, 0],
      subtasks: ["Task 0", "Task 1"],
      access_list: [[], []],
      workerIds: ["a", "b"],
    });
  });

  it("with a step on no worker, or on one that left the pool, opens again with a note", () => {
    const read = importRunChecked(exportWith(["a", "", "gone"]));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.record.rounds[0]?.steps.map((s) => s.worker)).toEqual(["a", "", "gone"]);
    // No Conductor numbers for workers it has none for.
    expect(read.record.rounds[0]?.lists).toBeNull();
    expect(read.notes.join(" ")).toContain("round 1, step 2 has no worker chosen yet.");
    expect(read.notes.join(" ")).toContain('its worker "gone" is not one of the 2 in the pool.');
  });
});
