import { describe, expect, it } from "vitest";
import { emptyRecord } from "./record.ts";
import { doneStep, roundRecord } from "../../test-support/engine/run/run-records.ts";
import type { RunRecord } from "../schema/record.ts";
import { TOP, focusLabel, inFocus, isTop, nestedOwnerFinish, roundAt } from "./focus.ts";

const step = doneStep;

const nested = roundRecord(0, [step(0, "inner a"), step(1, "inner b")]);
const record: RunRecord = {
  ...emptyRecord(),
  answer: "inner b",
  rounds: [
    roundRecord(0, [
      step(0, "a"),
      {
        ...step(1, "inner b"),
        nested: { depth: 1, question: "q", rounds: [nested], answer: "inner b" },
      },
    ]),
  ],
};
const focus = { parent: [{ round: 0, step: 1 }], round: 0 };

describe("focus", () => {
  it("finds the recorded round at a path and tells events of that workflow apart", () => {
    expect(roundAt(record, TOP)?.steps).toHaveLength(2);
    expect(roundAt(record, focus)).toBe(nested);
    expect(roundAt(record, { parent: [{ round: 0, step: 0 }], round: 0 })).toBeUndefined();
    expect(inFocus({ round: 0 }, TOP)).toBe(true);
    expect(inFocus({ round: 0, parent: focus.parent }, TOP)).toBe(false);
    expect(inFocus({ round: 0, parent: [{ round: 0, step: 1 }] }, focus)).toBe(true);
    expect(inFocus({ round: 1 }, TOP)).toBe(false);
  });

  it("names the workflow in focus", () => {
    expect(isTop(TOP)).toBe(true);
    expect(focusLabel({ parent: [], round: 1 })).toBe("Round 2");
    expect(focusLabel(focus)).toBe("the nested workflow of step 2");
    expect(focusLabel({ parent: [{ round: 1, step: 0 }], round: 0 })).toBe(
      "the nested workflow of step 1 (round 2)",
    );
  });

  it("a nested re-run gives its step the new answer, and the run too when that step answers last", () => {
    const { event: finish, runAnswer } = nestedOwnerFinish(record, focus, "better", 7);
    expect(finish).toMatchObject({
      type: "step_finish",
      round: 0,
      step: 1,
      output: "better",
      aggregate: true,
    });
    expect(finish && "parent" in finish ? finish.parent : undefined).toBeUndefined();
    expect(runAnswer).toBe("better");
    const notLast = {
      ...record,
      rounds: [...record.rounds, roundRecord(1, [step(0, "later")])],
      answer: "later",
    };
    expect(nestedOwnerFinish(notLast, focus, "better", 7).runAnswer).toBe("later");
  });
});
