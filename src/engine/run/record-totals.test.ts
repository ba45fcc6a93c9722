// The recorder derives its totals after every event that can change a call; these are the events
// that change a call without a new usage arriving, where a tally kept by adding usages would be wrong.
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import { applyEvent, recordOf } from "./record.ts";
import { runStart } from "../../test-support/engine/run/run-records.ts";
import { totalsOf } from "./totals.ts";

const start = runStart(0);
const usage = { promptTokens: 3, completionTokens: 2, estimated: false };
const steps = [
  { worker: "a", subtask: "Solve", access: [] as number[] },
  { worker: "a", subtask: "Check", access: [0] },
];
const finished: RunEvent[] = [
  start,
  { type: "round_start", at: 2, round: 0, steps },
  { type: "step_start", at: 3, round: 0, step: 0, attempt: 1, messages: [] },
  { type: "step_finish", at: 4, round: 0, step: 0, output: "42", usage, cost: 0.5 },
];

/** Every record along the log, each checked against a walk of its own calls. */
function expectLiveTotals(events: RunEvent[], initial?: RunRecord): RunRecord {
  let r = initial ?? recordOf([]);
  for (const e of events) {
    r = applyEvent(r, e);
    expect(r.totals).toEqual(totalsOf(r));
  }
  return r;
}

describe("the recorder's live totals", () => {
  it("keeps them through events that change no call (a step queued or started, a round finished)", () => {
    const r = expectLiveTotals([
      ...finished,
      { type: "step_queued", round: 0, step: 1 },
      { type: "step_start", at: 5, round: 0, step: 1, attempt: 1, messages: [] },
      { type: "round_finish", at: 6, round: 0, answer: "42" },
      { type: "run_finish", at: 7, status: "done", reason: "planned", answer: "42" },
    ]);
    expect(r.totals).toMatchObject({ calls: 1, cost: 0.5, promptTokens: 3 });
  });

  it("drops a finished step's call once the step is cancelled, though its usage stays", () => {
    const r = expectLiveTotals([...finished, { type: "step_cancel", at: 5, round: 0, step: 0 }]);
    expect(r.rounds[0]?.steps[0]?.usage).toEqual(usage);
    expect(r.totals.calls).toBe(0);
  });

  it("counts a step's new cost when it finishes again with the same usage object", () => {
    const r = expectLiveTotals([
      ...finished,
      { type: "step_finish", at: 5, round: 0, step: 0, output: "42", usage, cost: 0.25 },
    ]);
    expect(r.totals).toMatchObject({ calls: 1, cost: 0.25 });
  });

  it("counts a step's or a plan's new usage when it finishes again at the same cost", () => {
    const more = { ...usage, completionTokens: 20 };
    const r = expectLiveTotals([
      start,
      { type: "plan_start", at: 2, round: 0, messages: [] },
      { type: "plan_finish", at: 3, round: 0, raw: "x", usage, cost: 0 },
      { type: "plan_finish", at: 4, round: 0, raw: "x", usage: more, cost: 0 },
      { type: "round_start", at: 5, round: 0, steps },
      { type: "step_start", at: 6, round: 0, step: 0, attempt: 1, messages: [] },
      { type: "step_finish", at: 7, round: 0, step: 0, output: "42", usage, cost: 0.5 },
      { type: "step_finish", at: 8, round: 0, step: 0, output: "42", usage: more, cost: 0.5 },
    ]);
    expect(r.totals).toMatchObject({ calls: 2, completionTokens: 40 });
  });

  it("derives them afresh for a record it did not derive (an import whose totals are off)", () => {
    const done = recordOf(finished);
    const imported: RunRecord = { ...done, totals: { ...done.totals, calls: 7, cost: 9 } };
    const r = applyEvent(imported, { type: "round_finish", at: 5, round: 0, answer: "42" });
    expect(r.totals).toEqual(totalsOf(r));
    expect(r.totals).toMatchObject({ calls: 1, cost: 0.5 });
  });

  it("leaves out a part kept from the parent when a start keeps the same rounds", () => {
    const done = recordOf(finished);
    const seed = { rounds: done.rounds, kept: [] };
    const first = expectLiveTotals([{ ...start, seed }]);
    expect(first.totals.calls).toBe(1);
    const kept = [{ parent: [], round: 0, step: 0 }];
    const r = expectLiveTotals([{ ...start, seed: { rounds: done.rounds, kept } }], first);
    expect(r.totals.calls).toBe(0);
  });

  it("keeps the very totals object through streamed chunks, so the run bar redraws for none", () => {
    // RunBar selects record.totals shallowly: a new object, even an equal one, redraws it.
    const planning = expectLiveTotals([
      ...finished,
      { type: "plan_start", at: 5, round: 1, messages: [] },
    ]);
    const running = expectLiveTotals(
      [{ type: "step_start", at: 6, round: 0, step: 1, attempt: 1, messages: [] }],
      planning,
    );
    const chunks: [RunRecord, RunEvent][] = [
      [planning, { type: "plan_delta", round: 1, text: "model_id" }],
      [planning, { type: "plan_reasoning", round: 1, text: "hmm" }],
      [running, { type: "step_delta", round: 0, step: 1, text: "4" }],
      [running, { type: "step_reasoning", round: 0, step: 1, text: "hmm" }],
    ];
    for (const [r, chunk] of chunks) expect(applyEvent(r, chunk).totals).toBe(r.totals);
  });
});
