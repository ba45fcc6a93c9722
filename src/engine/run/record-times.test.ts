// How long a run spent planning and running, as the recorder sums it from the top-level plans and
// rounds, and the times each round keeps.
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../schema/events.ts";
import { recordOf } from "./record.ts";
import { runStart } from "../../test-support/engine/run/run-records.ts";

const start = runStart(1);
const usage = { promptTokens: 3, completionTokens: 2, estimated: false };
const steps = [{ worker: "a", subtask: "Solve", access: [] as number[] }];
/** Inside step 0 of round 0: a self-selected step's nested workflow. */
const inside = { parent: [{ round: 0, step: 0 }] };

/** Round 0 planned over [2, 6] and run over [7, 17], its step planning and running a nested workflow. */
const round0: RunEvent[] = [
  { type: "plan_start", at: 2, round: 0, messages: [] },
  { type: "plan_finish", at: 6, round: 0, raw: "x", usage, cost: 0, steps },
  { type: "round_start", at: 7, round: 0, steps },
  { type: "step_start", at: 8, round: 0, step: 0, attempt: 1, messages: [] },
  // The nested plan and round take time inside the top-level round: counted there, not again.
  { type: "plan_start", at: 9, round: 0, messages: [], ...inside },
  { type: "plan_finish", at: 11, round: 0, raw: "y", usage, cost: 0, steps, ...inside },
  { type: "round_start", at: 12, round: 0, steps, ...inside },
  { type: "round_finish", at: 15, round: 0, answer: "4", ...inside },
  { type: "step_finish", at: 16, round: 0, step: 0, output: "4", usage, cost: 0 },
  { type: "round_finish", at: 17, round: 0, answer: "4" },
];

describe("the recorder's times", () => {
  it("sums each top-level plan's and round's time, and leaves the nested ones out", () => {
    const r = recordOf([
      start,
      ...round0,
      { type: "plan_start", at: 20, round: 1, messages: [] },
      { type: "plan_finish", at: 23, round: 1, raw: "x", usage, cost: 0, steps },
      { type: "round_start", at: 30, round: 1, steps },
      { type: "round_finish", at: 38, round: 1, answer: "5" },
    ]);
    expect(r.planningMs).toBe(4 + 3);
    expect(r.executionMs).toBe(10 + 8);
    expect(r.rounds.map((rd) => [rd.startedAt, rd.finishedAt])).toEqual([
      [7, 17],
      [30, 38],
    ]);
    const nested = r.rounds[0]?.steps[0]?.nested?.rounds[0];
    expect(nested?.answer).toBe("4");
    expect(nested).not.toHaveProperty("startedAt");
    expect(nested).not.toHaveProperty("finishedAt");
  });

  it("has no time before anything was planned or run", () => {
    const r = recordOf([start, { type: "step_queued", round: 0, step: 0 }]);
    expect(r).toMatchObject({ planningMs: null, executionMs: null });
  });

  it("counts no time, not a negative one, for a plan or round that ends before it began", () => {
    // A clock that stepped back between the two events.
    const r = recordOf([
      start,
      { type: "plan_start", at: 10, round: 0, messages: [] },
      { type: "plan_finish", at: 8, round: 0, raw: "x", usage, cost: 0, steps },
      { type: "round_start", at: 20, round: 0, steps },
      { type: "round_finish", at: 19, round: 0, answer: "4" },
    ]);
    expect(r).toMatchObject({ planningMs: 0, executionMs: 0 });
  });

  it("counts no time for an end whose start it never saw, and does not fail on it", () => {
    const r = recordOf([
      start,
      // A plan that finishes with no plan_start, in a round that was never started and in one
      // that was (a hand-built workflow has no plan); a round that ends with no round_start.
      { type: "plan_finish", at: 5, round: 0, raw: "x", usage, cost: 0, steps },
      { type: "round_start", at: 6, round: 1, steps },
      { type: "plan_finish", at: 7, round: 1, raw: "x", usage, cost: 0 },
      { type: "round_finish", at: 9, round: 3, answer: null },
    ]);
    expect(r).toMatchObject({ planningMs: null, executionMs: null });
    expect(r.rounds[1]?.plan?.finishedAt).toBe(7);
    expect(r.rounds[3]?.finishedAt).toBe(9);
  });

  it("starts a round's clock again when the round is re-run", () => {
    const done = recordOf([start, ...round0]);
    const again = recordOf(
      [
        { type: "round_start", at: 40, round: 0, steps, keep: [0] },
        { type: "round_finish", at: 45, round: 0, answer: "4" },
      ],
      done,
    );
    expect(
      recordOf([{ type: "round_start", at: 40, round: 0, steps }], done).rounds[0],
    ).toMatchObject({ startedAt: 40, finishedAt: null, answer: null });
    expect(again.executionMs).toBe(10 + 5);
  });
});
