// Folds of the recorder that no whole-run log reaches: reclassified reasoning, retried plans,
// skipped steps, plan notices, accepted refinement rounds, fallback rounds, re-queued steps and
// step attempts.
import { describe, expect, it } from "vitest";
import type { RunEvent } from "../schema/events.ts";
import { recordOf } from "./record.ts";
import { runStart } from "../../test-support/engine/run/run-records.ts";
import * as ev from "../../test-support/engine/run/events.ts";

const start = runStart(1);
const usage = { promptTokens: 3, completionTokens: 2, estimated: false };
const steps = [{ worker: "a", subtask: "Solve", access: [] as number[] }];
const retry = { attempt: 2, delayMs: 5, code: "server", message: "5xx" } as const;

describe("the recorder's folds", () => {
  it("drops a plan's streamed raw text when it turns out to be reasoning", () => {
    const r = recordOf([
      start,
      ev.planStart(2),
      { type: "plan_delta", round: 0, text: "thinking" },
      { type: "plan_reasoning", round: 0, text: "thinking", reclassified: true },
      { type: "plan_delta", round: 0, text: "model_id" },
    ]);
    expect(r.rounds[0]?.plan).toMatchObject({ raw: "model_id", reasoning: "thinking" });
  });

  it("keeps a retried plan's failed attempts when the next attempt starts", () => {
    const r = recordOf([
      start,
      ev.planStart(2),
      ev.planRetry(3, retry),
      ev.planStart(8),
      ev.planRetry(9, { ...retry, attempt: 3 }),
    ]);
    expect(r.rounds[0]?.plan?.tries?.map((t) => [t.attempt, t.startedAt, t.finishedAt])).toEqual([
      [1, 2, 3],
      [2, 8, 9],
    ]);
  });

  it("records a plan's notice, and a refinement round with no steps as accepted", () => {
    const r = recordOf([
      start,
      ev.planStart(2),
      ev.planFinish(3, { raw: "x", usage, cost: 0, steps, notice: "shortened" }),
      ev.planStart(4, { round: 1 }),
      ev.planFinish(5, { round: 1, raw: "y", usage, cost: 0, steps: [] }),
    ]);
    expect(r.rounds[0]).toMatchObject({ accepted: false, plan: { notice: "shortened" } });
    expect(r.rounds[1]?.accepted).toBe(true);
    expect(r.rounds[1]?.plan).not.toHaveProperty("notice");
  });

  it("drops a step's streamed output that was reasoning, and records a skipped step's reason", () => {
    const r = recordOf([
      start,
      ev.roundStart(2, { steps: [...steps, ...steps] }),
      ev.stepStart(3, { step: 0, attempt: 1 }),
      { type: "step_delta", round: 0, step: 0, text: "hmm" },
      { type: "step_reasoning", round: 0, step: 0, text: "hmm", reclassified: true },
      { type: "step_delta", round: 0, step: 0, text: "42" },
      { type: "step_skip", at: 4, round: 0, step: 1, code: "upstream_failed", message: "needs 1" },
    ]);
    expect(r.rounds[0]?.steps[0]).toMatchObject({ output: "42", reasoning: "hmm" });
    expect(r.rounds[0]?.steps[1]).toMatchObject({
      status: "skipped",
      finishedAt: 4,
      error: { code: "upstream_failed", message: "needs 1" },
    });
  });

  it("times each step attempt from its own start and keeps every failed one", () => {
    const r = recordOf([
      start,
      ev.roundStart(2, { steps }),
      ev.stepStart(3, { step: 0, attempt: 1 }),
      ev.stepRetry(4, { step: 0, ...retry }),
      ev.stepStart(10, { step: 0, attempt: 2 }),
      ev.stepRetry(11, { step: 0, ...retry, attempt: 3 }),
    ]);
    const s = r.rounds[0]?.steps[0];
    expect(s?.startedAt).toBe(3);
    expect(s?.tries?.map((t) => [t.attempt, t.startedAt, t.finishedAt])).toEqual([
      [1, 3, 4],
      [2, 10, 11],
    ]);
  });

  it("starts a plan asked afresh (not after a retry) without the attempts of the one before", () => {
    const r = recordOf([
      start,
      ev.planStart(2),
      ev.planRetry(3, retry),
      ev.planStart(8),
      ev.planFinish(9, { raw: "x", usage, cost: 0, steps }),
      ev.planStart(20),
    ]);
    expect(r.rounds[0]?.plan).toMatchObject({ startedAt: 20, finishedAt: null });
    expect(r.rounds[0]?.plan).not.toHaveProperty("tries");
  });

  it("keeps the reasoning streamed before a finish that brings none, else the finish's own", () => {
    const streamed: RunEvent[] = [
      start,
      ev.planStart(2),
      { type: "plan_reasoning", round: 0, text: "plan thoughts" },
      ev.roundStart(3, { steps }),
      ev.stepStart(4, { step: 0, attempt: 1 }),
      { type: "step_reasoning", round: 0, step: 0, text: "step thoughts" },
    ];
    const planEnd = ev.planFinish(5, { raw: "x", usage, cost: 0 });
    const stepEnd = ev.stepFinish(6, { step: 0, output: "4", usage, cost: 0 });
    const kept = recordOf([...streamed, planEnd, stepEnd]);
    expect(kept.rounds[0]?.plan?.reasoning).toBe("plan thoughts");
    expect(kept.rounds[0]?.steps[0]?.reasoning).toBe("step thoughts");
    const given = recordOf([
      ...streamed,
      { ...planEnd, reasoning: "whole plan thoughts" },
      { ...stepEnd, reasoning: "whole step thoughts" },
    ]);
    expect(given.rounds[0]?.plan?.reasoning).toBe("whole plan thoughts");
    expect(given.rounds[0]?.steps[0]?.reasoning).toBe("whole step thoughts");
  });

  it("accepts only a refinement round with no steps: not a first round with none, nor one with some", () => {
    const planned = (round: number, s: typeof steps) =>
      recordOf([
        start,
        ev.planStart(2, { round }),
        ev.planFinish(3, { round, raw: "x", usage, cost: 0, steps: s }),
      ]).rounds[round]?.accepted;
    expect(planned(0, [])).toBe(false);
    expect(planned(1, steps)).toBe(false);
    expect(planned(1, [])).toBe(true);
  });

  it("records a fallback round's worker and reason, with no lists since no plan made it", () => {
    const fallback = {
      worker: "a",
      reason: { code: "unparseable_list", message: "no lists" },
    } as const;
    const r = recordOf([
      start,
      ev.planStart(2),
      ev.planFinish(3, { raw: "x", usage, cost: 0, steps }),
      ev.roundStart(4, { steps, fallback }),
    ]);
    expect(r.rounds[0]).toMatchObject({ fallback, lists: null });
    const planned = recordOf([start, ev.roundStart(4, { steps })]);
    expect(planned.rounds[0]).not.toHaveProperty("fallback");
  });

  it("queues a step that ran again as new: no output, reasoning, error, usage or attempts", () => {
    const r = recordOf([
      start,
      ev.roundStart(2, { steps }),
      ev.stepStart(3, { step: 0, attempt: 1 }),
      { type: "step_reasoning", round: 0, step: 0, text: "hmm" },
      ev.stepRetry(4, { step: 0, ...retry }),
      ev.stepStart(9, { step: 0, attempt: 2 }),
      ev.stepFinish(10, { step: 0, output: "4", usage, cost: 0.5 }),
      { type: "step_queued", round: 0, step: 0 },
    ]);
    // As new: the step as its round first laid it out (no output, times, usage or attempts), queued.
    const laidOut = recordOf([start, ev.roundStart(2, { steps })]).rounds[0]?.steps[0];
    expect(laidOut).toMatchObject({ output: "", usage: null, startedAt: null, attempts: 0 });
    expect(r.rounds[0]?.steps[0]).toEqual({ ...laidOut, status: "queued" });
    expect(r.totals.calls).toBe(0);
  });

  it("drops the failed attempts of an earlier run when a step starts afresh at attempt 1", () => {
    const r = recordOf([
      start,
      ev.roundStart(2, { steps }),
      ev.stepStart(3, { step: 0, attempt: 1 }),
      ev.stepRetry(4, { step: 0, ...retry }),
      ev.stepStart(9, { step: 0, attempt: 2 }),
      { type: "step_error", at: 10, round: 0, step: 0, code: "server", message: "5xx" },
      ev.stepStart(20, { step: 0, attempt: 1 }),
    ]);
    expect(r.rounds[0]?.steps[0]).toMatchObject({ status: "running", attempts: 1 });
    expect(r.rounds[0]?.steps[0]?.tries).toBeUndefined();
  });
});
