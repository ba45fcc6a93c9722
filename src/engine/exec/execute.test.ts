import { describe, expect, it } from "vitest";
import { callCost } from "../cost.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeBackend, FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent, RunEventType } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Pool } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { StepOutcome, WorkflowOutcome } from "./execute.ts";
import { CallBudget, workflowAnswer } from "./execute.ts";
import { buildWorkerMessages } from "./messages.ts";
import { ofType, workflowStarter } from "../../test-support/engine/exec/run-events.ts";
import { answerFor, subtaskOf } from "../../test-support/engine/exec/subtask.ts";

const question = "Is 391 a prime number?";
const pool: Pool = ["Alpha", "Beta", "Gamma"].map((name, i) =>
  WorkerSchema.parse({ id: `w${i}`, name, model: `model-${i}`, price: { input: 1, output: 2 } }),
);
const fastRetry = { baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 0, random: () => 0.5 };

/** A backend that answers each subtask with a fixed text, or with the reply scripted for it. */
function bySubtask(replies: Record<string, FakeReply> = {}): FakeBackend {
  return createFakeBackend((request) => {
    const subtask = subtaskOf(request);
    return replies[subtask] ?? { text: answerFor(subtask) };
  });
}
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
const start = workflowStarter({ question, pool, retry: fastRetry, now: () => 1000 });
/** Pulls events on demand, so a test can act while calls are held open by gates. */
function pump(gen: AsyncGenerator<RunEvent, WorkflowOutcome>) {
  const events: RunEvent[] = [];
  return {
    events,
    async until(pred: (e: RunEvent) => boolean): Promise<void> {
      while (!events.some(pred)) {
        const next = await gen.next();
        if (next.done) throw new Error("the run ended first");
        events.push(next.value);
      }
    },
    async finish(): Promise<WorkflowOutcome> {
      for (;;) {
        const next = await gen.next();
        if (next.done) return next.value;
        events.push(next.value);
      }
    },
  };
}
async function drain(gen: AsyncGenerator<RunEvent, WorkflowOutcome>) {
  const p = pump(gen);
  const outcome = await p.finish();
  return { events: p.events, outcome };
}
const is = (type: RunEventType, step: number) => (e: RunEvent) =>
  e.type === type && "step" in e && e.step === step;
const at = (events: RunEvent[], type: RunEventType, step: number) =>
  events.findIndex(is(type, step));

describe("executeWorkflow", () => {
  it("queues every step, then streams, finishes with usage and cost, and answers with the last output", async () => {
    const steps: Step[] = [
      { worker: "w0", subtask: "Factor 391.", access: [] },
      { worker: "w1", subtask: "Give the verdict.", access: "all" },
    ];
    const { events, outcome } = await drain(start(steps, bySubtask()));
    expect(events.slice(0, 2)).toEqual([
      { type: "step_queued", round: 0, step: 0 },
      { type: "step_queued", round: 0, step: 1 },
    ]);
    const finishes = ofType(events, "step_finish");
    expect(finishes.map((f) => f.output)).toEqual([
      answerFor("Factor 391."),
      answerFor("Give the verdict."),
    ]);
    for (const f of finishes) expect(f.cost).toBe(callCost(f.usage, pool[0]?.price));
    const deltas = ofType(events, "step_delta").filter((d) => d.step === 1);
    expect(deltas.map((d) => d.text).join("")).toBe(answerFor("Give the verdict."));
    expect(outcome).toEqual({
      status: "done",
      outcomes: finishes.map((f) => ({ status: "done", output: f.output })),
      answer: answerFor("Give the verdict."),
      budgetExhausted: false,
    });
  });

  it("runs independent steps concurrently", async () => {
    const [g0, g1] = [gate(), gate()];
    const steps: Step[] = [
      { worker: "w0", subtask: "Try A.", access: [] },
      { worker: "w1", subtask: "Try B.", access: [] },
    ];
    const backend = bySubtask({
      "Try A.": { text: "A", gate: g0.promise },
      "Try B.": { text: "B", gate: g1.promise },
    });
    const run = pump(start(steps, backend));
    await run.until(is("step_start", 0));
    await run.until(is("step_start", 1));
    expect(run.events.some((e) => e.type === "step_finish")).toBe(false);
    g1.open();
    g0.open();
    expect((await run.finish()).status).toBe("done");
  });

  it("starts a step with access [0] once step 0 finishes, while step 1 still runs", async () => {
    const [g0, g1] = [gate(), gate()];
    const steps: Step[] = [
      { worker: "w0", subtask: "Draft.", access: [] },
      { worker: "w1", subtask: "Slow side task.", access: [] },
      { worker: "w2", subtask: "Polish the draft.", access: [0] },
    ];
    const backend = bySubtask({
      "Draft.": { text: "draft", gate: g0.promise },
      "Slow side task.": { text: "side", gate: g1.promise },
    });
    const run = pump(start(steps, backend));
    await run.until(is("step_start", 1));
    expect(backend.calls.map(subtaskOf)).not.toContain("Polish the draft.");
    g0.open();
    await run.until(is("step_finish", 2));
    expect(at(run.events, "step_finish", 1)).toBe(-1);
    g1.open();
    await run.finish();
    expect(at(run.events, "step_start", 2)).toBeGreaterThan(at(run.events, "step_finish", 0));
  });

  it('waits for every earlier step before starting an "all" step', async () => {
    const [g0, g1] = [gate(), gate()];
    const steps: Step[] = [
      { worker: "w0", subtask: "Try A.", access: [] },
      { worker: "w1", subtask: "Try B.", access: [] },
      { worker: "w2", subtask: "Compare.", access: "all" },
    ];
    const backend = bySubtask({
      "Try A.": { text: "A", gate: g0.promise },
      "Try B.": { text: "B", gate: g1.promise },
    });
    const run = pump(start(steps, backend));
    g0.open();
    await run.until(is("step_finish", 0));
    await flush();
    expect(backend.calls.map(subtaskOf)).toEqual(["Try A.", "Try B."]);
    g1.open();
    await run.finish();
    expect(at(run.events, "step_start", 2)).toBeGreaterThan(at(run.events, "step_finish", 1));
  });

  it("gives every worker the same messages as running the steps in order", async () => {
    const g0 = gate();
    const steps: Step[] = [
      { worker: "w0", subtask: "Solve it.", access: [] },
      { worker: "w1", subtask: "Solve it another way.", access: [] },
      { worker: "w2", subtask: "Check the first solution.", access: [0] },
      { worker: "w0", subtask: "Reconcile everything.", access: "all" },
      { worker: "w1", subtask: "Final answer.", access: [1, 3] },
    ];
    // Step 0 is held until step 1 has finished, so completion order differs from step order.
    const backend = bySubtask({ "Solve it.": { text: answerFor("Solve it."), gate: g0.promise } });
    const events: RunEvent[] = [];
    for await (const e of start(steps, backend)) {
      events.push(e);
      if (is("step_finish", 1)(e)) g0.open();
    }
    expect(at(events, "step_finish", 1)).toBeLessThan(at(events, "step_finish", 0));
    const outputs: string[] = [];
    const reference: ChatMessage[][] = steps.map((step, index) => {
      const messages = buildWorkerMessages({
        question,
        steps,
        workerIds: pool.map((w) => w.id),
        index,
        outputs,
      });
      outputs.push(answerFor(step.subtask));
      return messages;
    });
    const starts = ofType(events, "step_start").sort((a, b) => a.step - b.step);
    expect(starts.map((s) => s.messages)).toEqual(reference);
    const sent = [...backend.calls].sort(
      (a, b) =>
        steps.findIndex((s) => s.subtask === subtaskOf(a)) -
        steps.findIndex((s) => s.subtask === subtaskOf(b)),
    );
    expect(sent.map((r) => r.messages)).toEqual(reference);
  });

  it("skips the dependants of a failed step (step_skip, upstream_failed) while independent steps finish", async () => {
    const steps: Step[] = [
      { worker: "w0", subtask: "Broken.", access: [] },
      { worker: "w1", subtask: "Fine.", access: [] },
      { worker: "w2", subtask: "Needs the broken one.", access: [1, 0] },
      { worker: "w0", subtask: "Needs the fine one.", access: [1] },
    ];
    const backend = bySubtask({ "Broken.": { error: new LlmError("auth", undefined, 401) } });
    const { events, outcome } = await drain(start(steps, backend));
    const errors = ofType(events, "step_error");
    expect(errors.map((e) => [e.step, e.code])).toEqual([[0, "auth"]]);
    // The step that never ran is skipped, not failed.
    const skips = ofType(events, "step_skip");
    expect(skips.map((e) => [e.step, e.code])).toEqual([[2, "upstream_failed"]]);
    expect(skips[0]?.message).toContain("needs step 1");
    const roundStart: RunEvent = { type: "round_start", at: 0, round: 0, steps };
    expect(recordOf([roundStart, ...events]).rounds[0]?.steps.map((st) => st.status)).toEqual([
      "failed",
      "done",
      "skipped",
      "done",
    ]);
    expect(backend.calls.map(subtaskOf)).not.toContain("Needs the broken one.");
    expect(
      ofType(events, "step_finish")
        .map((f) => f.step)
        .sort(),
    ).toEqual([1, 3]);
    expect(outcome.status).toBe("failed");
    expect(outcome.answer).toBeNull();
    expect(outcome.outcomes.map((o) => o.status)).toEqual(["failed", "done", "failed", "done"]);
  });

  it("cancels running and waiting steps on abort, and calls nothing more", async () => {
    const controller = new AbortController();
    const [g0, g2] = [gate(), gate()];
    const steps: Step[] = [
      { worker: "w0", subtask: "Long one.", access: [] },
      { worker: "w1", subtask: "After the long one.", access: [0] },
      { worker: "w2", subtask: "Another long one.", access: [] },
    ];
    const backend = bySubtask({
      "Long one.": { text: "x", gate: g0.promise },
      "Another long one.": { text: "y", gate: g2.promise },
    });
    const run = pump(start(steps, backend, { signal: controller.signal }));
    await run.until(is("step_start", 0));
    await run.until(is("step_start", 2));
    controller.abort();
    g0.open();
    g2.open();
    const outcome = await run.finish();
    expect(
      ofType(run.events, "step_cancel")
        .map((e) => e.step)
        .sort(),
    ).toEqual([0, 1, 2]);
    expect(ofType(run.events, "step_finish")).toEqual([]);
    expect(backend.calls).toHaveLength(2);
    expect(outcome.status).toBe("cancelled");
    expect(outcome.answer).toBeNull();
  });

  it("ends cancelled, not failed, when the user cancels after a step has failed", async () => {
    const controller = new AbortController();
    const g = gate();
    const steps: Step[] = [
      { worker: "w0", subtask: "Broken.", access: [] },
      { worker: "w1", subtask: "Slow.", access: [] },
    ];
    const backend = bySubtask({
      "Broken.": { error: new LlmError("auth", undefined, 401) },
      "Slow.": { text: "z", gate: g.promise },
    });
    const run = pump(start(steps, backend, { signal: controller.signal }));
    await run.until(is("step_error", 0));
    controller.abort();
    g.open();
    const outcome = await run.finish();
    expect(outcome.status).toBe("cancelled");
    expect(outcome.outcomes.map((o) => o.status)).toEqual(["failed", "cancelled"]);
  });

  it("reports a worker id that is not in the pool as a missing_worker step error", async () => {
    const steps: Step[] = [
      { worker: "w7", subtask: "Nobody.", access: [] },
      { worker: "w0", subtask: "Sees nobody.", access: "all" },
    ];
    const backend = bySubtask();
    const { events, outcome } = await drain(start(steps, backend));
    const errors = ofType(events, "step_error");
    expect(errors.map((e) => [e.step, e.code])).toEqual([[0, "missing_worker"]]);
    expect(ofType(events, "step_skip").map((e) => [e.step, e.code])).toEqual([
      [1, "upstream_failed"],
    ]);
    expect(errors[0]?.message).toContain('"w7"');
    expect(backend.calls).toHaveLength(0);
    expect(outcome.status).toBe("failed");
  });

  it("reports retries and keeps only the final attempt's text in the record", async () => {
    const steps: Step[] = [{ worker: "w0", subtask: "Flaky.", access: [] }];
    const backend = createFakeBackend([
      { chunks: ["Wrong ", "start"], failAfterChunks: 2, error: new LlmError("dropped") },
      { error: new LlmError("rate_limited", undefined, 429, 2) },
      { text: "Clean answer." },
    ]);
    const { events, outcome } = await drain(start(steps, backend));
    const retries = ofType(events, "step_retry");
    expect(retries.map((r) => [r.attempt, r.code, r.delayMs])).toEqual([
      [2, "dropped", 1],
      [3, "rate_limited", 2],
    ]);
    expect(ofType(events, "step_start").map((s) => s.attempt)).toEqual([1, 2, 3]);
    expect(outcome.answer).toBe("Clean answer.");
    const record = recordOf([
      { type: "run_start", at: 0, runId: "r", question, pool, maxSteps: 5, maxRounds: 0 },
      { type: "round_start", at: 0, round: 0, steps },
      ...events,
    ]);
    expect(record.rounds[0]?.steps[0]).toMatchObject({
      output: "Clean answer.",
      attempts: 3,
      status: "done",
      error: null,
    });
  });

  it("keeps the outputs of kept steps without calling them, and shows them to dependants", async () => {
    const steps: Step[] = [
      { worker: "w0", subtask: "Kept draft.", access: [] },
      { worker: "w1", subtask: "Improve the draft.", access: [0] },
    ];
    const backend = bySubtask();
    const keep = new Map([[0, "The kept draft says 17 x 23."]]);
    const { events, outcome } = await drain(start(steps, backend, { keep }));
    expect(backend.calls.map(subtaskOf)).toEqual(["Improve the draft."]);
    expect(events.some((e) => "step" in e && e.step === 0)).toBe(false);
    expect(backend.calls[0]?.messages[0]?.content).toContain("The kept draft says 17 x 23.");
    expect(outcome.outcomes[0]).toEqual({ status: "done", output: "The kept draft says 17 x 23." });
    expect(outcome.answer).toBe(answerFor("Improve the draft."));
  });

  it("stops at the call budget: the step it refused is not run (skipped), not failed", async () => {
    const steps: Step[] = [
      { worker: "w0", subtask: "One.", access: [] },
      { worker: "w1", subtask: "Two.", access: [0] },
    ];
    const budget = new CallBudget(1);
    const backend = bySubtask();
    const { events, outcome } = await drain(start(steps, backend, { budget }));
    expect(ofType(events, "step_skip").map((e) => [e.step, e.code])).toEqual([[1, "budget"]]);
    expect(ofType(events, "step_error")).toEqual([]);
    expect(backend.calls).toHaveLength(1);
    expect(outcome).toMatchObject({ status: "failed", budgetExhausted: true });
    expect(budget.used).toBe(1);
  });

  it("tags every event with its round", async () => {
    const steps: Step[] = [{ worker: "w0", subtask: "Only.", access: [] }];
    const { events } = await drain(start(steps, bySubtask(), { round: 2 }));
    expect(events.every((e) => "round" in e && e.round === 2)).toBe(true);
  });
});

describe("workflowAnswer", () => {
  const done = (output: string): StepOutcome => ({ status: "done", output });
  it("is the last step's output", () => {
    expect(workflowAnswer([done("first"), done("last")])).toBe("last");
  });
  it("falls back to the last non-empty output when the last is empty", () => {
    expect(workflowAnswer([done("first"), done("second"), done("  \n")])).toBe("second");
    expect(workflowAnswer([done("only"), { status: "failed" }, done("")])).toBe("only");
  });
  it("is the empty output when every output is empty", () => {
    expect(workflowAnswer([done(""), done(" ")])).toBe(" ");
  });
  it("is null when there are no steps or the last did not finish", () => {
    expect(workflowAnswer([])).toBeNull();
    expect(workflowAnswer([done("x"), { status: "failed" }])).toBeNull();
    expect(workflowAnswer([done("x"), { status: "cancelled" }])).toBeNull();
  });
});

describe("CallBudget", () => {
  it("grants calls up to its cap and counts them", () => {
    const budget = new CallBudget(2);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
    expect(budget.used).toBe(2);
    const unlimited = new CallBudget();
    for (let i = 0; i < 1000; i++) expect(unlimited.take()).toBe(true);
  });
});
