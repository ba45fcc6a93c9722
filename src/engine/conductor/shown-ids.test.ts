import { describe, expect, it } from "vitest";
import type { PlannedStep, Step } from "../schema/workflow.ts";
import { findWorker, modelIdOf, numberedSteps, shownIds, stepsByWorkerId } from "./shown-ids.ts";

// A pool whose ids say nothing about their places, so a mix-up of the two shows.
const pool = [
  { id: "gpt", name: "GPT" },
  { id: "claude", name: "Claude" },
  { id: "qwen", name: "Qwen" },
];
const planned: PlannedStep[] = [
  { worker: 2, subtask: "Draft.", access: [] },
  { worker: 0, subtask: "Check.", access: [0] },
  { worker: 2, subtask: "Answer.", access: "all" },
];

describe("shownIds / findWorker", () => {
  it("lists the pool's ids in order, and finds a worker by id", () => {
    expect(shownIds(pool)).toEqual(["gpt", "claude", "qwen"]);
    expect(findWorker(pool, "claude")).toBe(pool[1]);
    expect(findWorker(pool, "")).toBeUndefined();
    expect(findWorker(pool, "1")).toBeUndefined();
  });
});

describe("stepsByWorkerId", () => {
  it("replaces each model id by the id it stood for, keeping subtask and access", () => {
    expect(stepsByWorkerId(planned, shownIds(pool))).toEqual([
      { worker: "qwen", subtask: "Draft.", access: [] },
      { worker: "gpt", subtask: "Check.", access: [0] },
      { worker: "qwen", subtask: "Answer.", access: "all" },
    ]);
  });

  it("throws a RangeError on a model id outside the ids, a bug in the caller", () => {
    const ids = shownIds(pool);
    expect(() => stepsByWorkerId([{ worker: 3, subtask: "x", access: [] }], ids)).toThrow(
      RangeError,
    );
    expect(() => stepsByWorkerId([{ worker: -1, subtask: "x", access: [] }], ids)).toThrow(
      /model id -1 is outside a pool of 3/,
    );
    expect(() => stepsByWorkerId(planned, [])).toThrow(RangeError);
  });
});

describe("modelIdOf / numberedSteps", () => {
  it("numbers a worker by its place in the ids, -1 when it is not there", () => {
    const ids = shownIds(pool);
    expect(ids.map((id) => modelIdOf(ids, id))).toEqual([0, 1, 2]);
    expect(modelIdOf(ids, "gone")).toBe(-1);
    expect(modelIdOf(ids, "")).toBe(-1);
  });

  it("round-trips: numbered then mapped back gives the same steps, and the other way", () => {
    const ids = shownIds(pool);
    const steps = stepsByWorkerId(planned, ids);
    expect(numberedSteps(steps, ids)).toEqual(planned);
    expect(stepsByWorkerId(numberedSteps(steps, ids), ids)).toEqual(steps);
  });

  it("renumbers the same steps for a reordered pool, and writes a missing worker as -1", () => {
    const steps: Step[] = stepsByWorkerId(planned, shownIds(pool));
    const reordered = shownIds([pool[2]!, pool[0]!, pool[1]!]);
    expect(numberedSteps(steps, reordered).map((s) => s.worker)).toEqual([0, 1, 0]);
    // Mapped back through the reordered ids: still the same workers.
    expect(stepsByWorkerId(numberedSteps(steps, reordered), reordered)).toEqual(steps);
    const without = shownIds([pool[0]!, pool[1]!]);
    expect(numberedSteps(steps, without).map((s) => s.worker)).toEqual([-1, 0, -1]);
  });
});
