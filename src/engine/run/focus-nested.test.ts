// The focus helpers on nested workflows two levels deep, on paths the record does not hold, and
// nestedOwnerFinish's usage, cost and run answer.
import { describe, expect, it } from "vitest";
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import {
  TOP,
  focusLabel,
  inFocus,
  nestedOwnerFinish,
  priorOf,
  questionAt,
  roundAt,
} from "./focus.ts";
import { emptyRecord } from "./record.ts";
import { doneStep, roundRecord } from "../../test-support/engine/run/run-records.ts";

const step = doneStep;
const nest = (question: string, rounds: RoundRecord[]) => ({
  depth: 1,
  question,
  rounds,
  answer: null,
});

const deep = roundRecord(0, [step(0, "deep a")]);
const usage = { promptTokens: 11, completionTokens: 5, estimated: false };
// Round 1: step 1 holds a nested workflow whose step 1 holds another; round 2 has one step.
const record: RunRecord = {
  ...emptyRecord(),
  question: "top question",
  answer: "last",
  rounds: [
    roundRecord(0, [
      step(0, "a"),
      step(1, "b", {
        usage,
        cost: 0.25,
        nested: nest("inner question", [
          roundRecord(0, [step(0, "i0"), step(1, "i1", { nested: nest("deep question", [deep]) })]),
        ]),
      }),
      step(2, "c"),
    ]),
    roundRecord(1, [step(0, "last", { nested: nest("", [roundRecord(0, [step(0, "x")])]) })]),
  ],
};
const inner = { parent: [{ round: 0, step: 1 }], round: 0 };
const deeper = {
  parent: [
    { round: 0, step: 1 },
    { round: 0, step: 1 },
  ],
  round: 0,
};

describe("focus on nested workflows", () => {
  it("labels a workflow two levels deep with its round", () => {
    expect(focusLabel(deeper)).toBe("the nested workflow of step 2 (round 1)");
  });

  it("tells events apart by every part of their path", () => {
    expect(inFocus({ round: 0 }, inner)).toBe(false);
    expect(inFocus({ round: 0, parent: [{ round: 0, step: 2 }] }, inner)).toBe(false);
    expect(inFocus({ round: 0, parent: [{ round: 1, step: 1 }] }, inner)).toBe(false);
    expect(inFocus({ round: 0, parent: deeper.parent }, deeper)).toBe(true);
  });

  it("finds a round two levels deep and nothing on a path the record lacks", () => {
    expect(roundAt(record, deeper)).toBe(deep);
    expect(roundAt(record, { parent: [{ round: 0, step: 9 }], round: 0 })).toBeUndefined();
    expect(roundAt(record, { parent: [{ round: 5, step: 0 }], round: 0 })).toBeUndefined();
  });

  it("asks each workflow its own question, the run's where the record has none", () => {
    expect(questionAt(record, TOP)).toBe("top question");
    expect(questionAt(record, inner)).toBe("inner question");
    expect(questionAt(record, deeper)).toBe("deep question");
    expect(questionAt(record, { parent: [{ round: 1, step: 0 }], round: 0 })).toBe("");
    expect(questionAt(record, { parent: [{ round: 0, step: 9 }], round: 0 })).toBe("top question");
    expect(questionAt(record, { parent: [{ round: 5, step: 0 }], round: 0 })).toBe("top question");
    // A step with no nested workflow of its own asks the run's question.
    expect(questionAt(record, { parent: [{ round: 0, step: 0 }], round: 0 })).toBe("top question");
  });

  it("shows the next round only finished outputs", () => {
    const r = roundRecord(0, [step(0, "kept"), step(1, "partial", { status: "failed" })]);
    expect(priorOf(r)).toEqual([
      { worker: "w0", subtask: "s0", output: "kept" },
      { worker: "w0", subtask: "s1", output: "" },
    ]);
    expect(priorOf(undefined)).toBeUndefined();
  });
});

describe("nestedOwnerFinish", () => {
  it("at the top level there is no owner: the answer is the run's", () => {
    expect(nestedOwnerFinish(record, TOP, "new", 3)).toEqual({ event: null, runAnswer: "new" });
  });

  it("finishes the owner with its own usage and cost; the run's answer stays when it is not last", () => {
    expect(nestedOwnerFinish(record, inner, "better", 7)).toEqual({
      event: {
        type: "step_finish",
        at: 7,
        round: 0,
        step: 1,
        output: "better",
        usage,
        cost: 0.25,
        aggregate: true,
      },
      runAnswer: "last",
    });
  });

  it("a deeper workflow finishes its owner inside the nested one, never the run's answer", () => {
    const { event, runAnswer } = nestedOwnerFinish(record, deeper, "deep new", 8);
    expect(event).toEqual({
      type: "step_finish",
      at: 8,
      round: 0,
      step: 1,
      output: "deep new",
      usage: { promptTokens: 0, completionTokens: 0, estimated: false },
      cost: 0,
      aggregate: true,
      parent: [{ round: 0, step: 1 }],
    });
    expect(runAnswer).toBe("last");
  });

  it("changes the run's answer only when the owner is the last round's last step", () => {
    const last = { parent: [{ round: 1, step: 0 }], round: 0 };
    expect(nestedOwnerFinish(record, last, "final", 9).runAnswer).toBe("final");
    const twoSteps = {
      ...record,
      rounds: [record.rounds[0]!, roundRecord(1, [record.rounds[1]!.steps[0]!, step(1, "after")])],
    };
    expect(nestedOwnerFinish(twoSteps, last, "final", 9).runAnswer).toBe("last");
    // A step of an earlier round at the place of the last round's last step does not answer.
    const earlier = { parent: [{ round: 0, step: 0 }], round: 0 };
    expect(nestedOwnerFinish(record, earlier, "x", 1).runAnswer).toBe("last");
    const empty = { ...record, rounds: [] };
    expect(nestedOwnerFinish(empty, last, "x", 1).runAnswer).toBe("last");
    const missing = { parent: [{ round: 3, step: 0 }], round: 0 };
    expect(nestedOwnerFinish(record, missing, "x", 1).event).toMatchObject({ cost: 0 });
  });

  it("a workflow nested in the last step's nested workflow never changes the run's answer", () => {
    // One round of one step: its nested workflow's only step holds another nested workflow.
    const innerMost = nest("q2", [roundRecord(0, [step(0, "y")])]);
    const single: RunRecord = {
      ...emptyRecord(),
      answer: "old",
      rounds: [
        roundRecord(0, [
          step(0, "z", {
            nested: nest("q1", [roundRecord(0, [step(0, "w", { nested: innerMost })])]),
          }),
        ]),
      ],
    };
    const path = {
      parent: [
        { round: 0, step: 0 },
        { round: 0, step: 0 },
      ],
      round: 0,
    };
    expect(nestedOwnerFinish(single, path, "new", 1).runAnswer).toBe("old");
    expect(
      nestedOwnerFinish(single, { parent: [{ round: 0, step: 0 }], round: 0 }, "new", 1).runAnswer,
    ).toBe("new");
  });
});
