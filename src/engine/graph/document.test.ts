import { describe, expect, it } from "vitest";
import type { Step } from "../schema/workflow.ts";
import {
  docFromSteps,
  emptyDoc,
  indexOfStep,
  newStepId,
  stepName,
  stepsOf,
  visibleIds,
} from "./document.ts";
import { counterIds, deepFreeze, makeDoc } from "../../test-support/engine/graph/graph-docs.ts";

describe("docFromSteps / stepsOf", () => {
  const steps: Step[] = deepFreeze([
    { worker: "w2", subtask: "Solve it", access: [] },
    { worker: "w0", subtask: "Solve it another way", access: [] },
    { worker: "w1", subtask: "Check both", access: "all" },
  ]);

  it("gives each step an id and round-trips the steps", () => {
    const doc = docFromSteps(steps, counterIds());
    expect(doc.steps.map((s) => s.id)).toEqual(["n1", "n2", "n3"]);
    expect(doc.positions).toEqual({});
    expect(stepsOf(doc)).toEqual(steps);
  });

  it("normalises explicit access lists: sorted, unique, earlier only", () => {
    const doc = docFromSteps(
      [
        { worker: "w0", subtask: "a", access: [] },
        { worker: "w0", subtask: "b", access: [0] },
        { worker: "w0", subtask: "c", access: [1, 0, 1, 5] },
      ],
      counterIds(),
    );
    expect(doc.steps.map((s) => s.access)).toEqual([[], [0], [0, 1]]);
  });

  it("stepsOf copies access lists, so the engine cannot alias the document", () => {
    const doc = makeDoc([[], [0]]);
    const out = stepsOf(doc);
    expect(out[1]?.access).toEqual([0]);
    expect(out[1]?.access).not.toBe(doc.steps[1]?.access);
  });

  it("default ids are unique", () => {
    const ids = new Set(Array.from({ length: 500 }, () => newStepId()));
    expect(ids.size).toBe(500);
    expect(docFromSteps(steps).steps.map((s) => s.id)).toHaveLength(3);
  });
});

describe("helpers", () => {
  it("finds steps and what they see", () => {
    const doc = makeDoc([[], [], "all", [1]]);
    expect(indexOfStep(doc, "c")).toBe(2);
    expect(indexOfStep(doc, "zz")).toBe(-1);
    expect(visibleIds(doc, 2)).toEqual(["a", "b"]);
    expect(visibleIds(doc, 3)).toEqual(["b"]);
    expect(visibleIds(doc, 9)).toEqual([]);
    expect(emptyDoc()).toEqual({ steps: [], positions: {} });
  });

  it("names steps by 1-based number and the start of the subtask", () => {
    const doc = makeDoc([[]]);
    expect(stepName(doc, 0)).toBe('step 1 ("task a")');
    const long = {
      ...doc,
      steps: [{ id: "x", worker: "w0", subtask: "x".repeat(60), access: [] }],
    };
    expect(stepName(long, 0)).toBe(`step 1 ("${"x".repeat(39)}…")`);
    expect(
      stepName({ ...doc, steps: [{ id: "x", worker: "w0", subtask: " ", access: [] }] }, 0),
    ).toBe("step 1");
  });
});
