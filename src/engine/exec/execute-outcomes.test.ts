// How each way a step can end shapes the run: the events executeWorkflow emits, the request a
// backend receives, and the workflow's outcome (status, per-step outcomes, budgetExhausted).
import { describe, expect, it, vi } from "vitest";
import { callCost } from "../cost.ts";
import { failure } from "../errors.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import type { ParentPath, RunEvent } from "../schema/events.ts";
import type { Pool } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { NestedResult, NestedRunner } from "./execute.ts";
import { CallBudget, executeWorkflow } from "./execute.ts";
import { drain, ofType, workflowStarter } from "../../test-support/engine/exec/run-events.ts";

const question = "How many primes are below 100?";
const pool: Pool = [
  WorkerSchema.parse({ id: "w0", name: "Alpha", model: "alpha", price: { input: 1, output: 2 } }),
  WorkerSchema.parse({ id: "w1", name: "Beta", model: "beta", price: { input: 3, output: 5 } }),
  WorkerSchema.parse({
    id: "self",
    name: "The Conductor itself",
    kind: "conductor",
    price: { input: 0, output: 0 },
  }),
];
const fastRetry = { baseDelayMs: 0, maxDelayMs: 0, timeoutMs: 0, random: () => 0 };
const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  estimated: false,
});

const start = workflowStarter({ question, pool, retry: fastRetry, now: () => 42 });
/** A nested runner that yields `events` (tagged with the path it is given) and returns `result`. */
function scriptedNested(result: NestedResult, events: RunEvent[] = []) {
  const seen: { parent: ParentPath }[] = [];
  const runner: NestedRunner = async function* ({ parent }) {
    seen.push({ parent });
    await Promise.resolve(); // a nested run is asynchronous: the step waits for it
    for (const e of events) yield { ...e, parent } as RunEvent;
    return result;
  };
  return { runner, seen };
}
const answer = (text: string): FakeReply => ({ text });
const CANCELLED: NestedResult = {
  status: "cancelled",
  answer: null,
  code: "aborted",
  message: "Cancelled.",
};

describe("a step's request and its events", () => {
  it("sends a worker's extra body fields with its request, and none for a worker without", async () => {
    const withBody: Pool = [
      WorkerSchema.parse({ id: "w0", name: "A", model: "a", extraBody: { top_k: 20 } }),
      WorkerSchema.parse({ id: "w1", name: "B", model: "b" }),
    ];
    const backend = createFakeBackend([answer("ok")]);
    const steps: Step[] = [
      { worker: "w0", subtask: "One.", access: [] },
      { worker: "w1", subtask: "Two.", access: [0] },
    ];
    await drain(start(steps, backend, { pool: withBody }));
    expect(backend.calls[0]?.extraBody).toEqual({ top_k: 20 });
    expect(backend.calls[1]).not.toHaveProperty("extraBody");
  });

  it("streams a worker's reasoning apart from its answer, and keeps it on the finish", async () => {
    const backend = createFakeBackend([
      { reasoning: ["Count them: ", "2, 3, 5, ..."], text: "There are 25." },
    ]);
    const steps: Step[] = [{ worker: "w0", subtask: "Count.", access: [] }];
    const { events } = await drain(start(steps, backend));
    expect(ofType(events, "step_reasoning")).toEqual([
      { type: "step_reasoning", round: 0, step: 0, text: "Count them: " },
      { type: "step_reasoning", round: 0, step: 0, text: "2, 3, 5, ..." },
    ]);
    const finish = ofType(events, "step_finish")[0];
    expect(finish).toMatchObject({
      output: "There are 25.",
      reasoning: "Count them: 2, 3, 5, ...",
    });
  });

  it("moves answer text that a bare </think> shows was reasoning into the reasoning", async () => {
    const backend = createFakeBackend([
      { chunks: ["Primes up to 100... ", "</think>", "There are 25."] },
    ]);
    const steps: Step[] = [{ worker: "w0", subtask: "Count.", access: [] }];
    const { events } = await drain(start(steps, backend));
    expect(ofType(events, "step_reasoning")).toEqual([
      {
        type: "step_reasoning",
        round: 0,
        step: 0,
        text: "Primes up to 100... ",
        reclassified: true,
      },
    ]);
    expect(ofType(events, "step_finish")[0]).toMatchObject({
      output: "There are 25.",
      reasoning: "Primes up to 100... ",
    });
  });

  it("a finish without reasoning carries no reasoning field", async () => {
    const backend = createFakeBackend([answer("25")]);
    const { events } = await drain(
      start([{ worker: "w0", subtask: "Count.", access: [] }], backend),
    );
    expect(ofType(events, "step_finish")[0]).not.toHaveProperty("reasoning");
  });

  it("prices a worker's call at its own price, and a Conductor step run as a plain call at the Conductor's", async () => {
    const selfPrice = { input: 10, output: 20 };
    const backend = createFakeBackend([answer("Twenty-five.")]);
    const steps: Step[] = [
      { worker: "w1", subtask: "Count.", access: [] },
      { worker: "self", subtask: "Check the count.", access: [] },
    ];
    // No nested runner: past the depth cap a Conductor step is an ordinary call.
    const { events } = await drain(start(steps, backend, { selfPrice }));
    const [worker, self] = [0, 1].map((i) => {
      const finish = ofType(events, "step_finish").find((f) => f.step === i);
      if (!finish) throw new Error(`step ${i} did not finish`);
      return finish;
    });
    expect(worker?.cost).toBe(callCost(worker!.usage, pool[1]?.price));
    expect(self?.cost).toBe(callCost(self!.usage, selfPrice));
    expect(worker?.cost).not.toBe(callCost(worker!.usage, selfPrice));
  });

  it("says which step uses a worker that is not in the pool", async () => {
    const steps: Step[] = [
      { worker: "w0", subtask: "Fine.", access: [] },
      { worker: "gone", subtask: "Nobody.", access: [] },
    ];
    const { events, outcome } = await drain(start(steps, createFakeBackend([answer("ok")])));
    expect(ofType(events, "step_error")[0]?.message).toContain('step 2 uses worker "gone"');
    expect(outcome.outcomes).toEqual([{ status: "done", output: "ok" }, { status: "failed" }]);
  });

  it("says which step a skipped step needed", async () => {
    const steps: Step[] = [
      { worker: "w0", subtask: "Fine.", access: [] },
      { worker: "w0", subtask: "Broken.", access: [] },
      { worker: "w1", subtask: "Needs both.", access: [0, 1] },
    ];
    const backend = createFakeBackend((r) =>
      r.messages[0]?.content.endsWith("Broken.")
        ? { error: new LlmError("auth", undefined, 401) }
        : answer("ok"),
    );
    const { events } = await drain(start(steps, backend));
    const skips = ofType(events, "step_skip");
    expect(skips.map((e) => [e.step, e.code])).toEqual([[2, "upstream_failed"]]);
    expect(skips[0]?.message).toMatch(/ step 3 needs step 2\.$/);
  });

  it("reports a backend that cannot be made for a worker as that step's unknown error", async () => {
    const steps: Step[] = [{ worker: "w0", subtask: "Count.", access: [] }];
    const { events, outcome } = await drain(
      start(steps, createFakeBackend([answer("ok")]), {
        backendFor: () => {
          throw new Error("no API key for Alpha");
        },
      }),
    );
    const error = ofType(events, "step_error")[0];
    expect(error).toMatchObject({ step: 0, code: "unknown" });
    expect(error?.message).toContain("no API key for Alpha");
    expect(outcome).toMatchObject({ status: "failed", budgetExhausted: false });
  });

  it("a failure other than the budget does not say the budget ran out", async () => {
    const backend = createFakeBackend([{ error: new LlmError("auth", undefined, 401) }]);
    const { outcome } = await drain(start([{ worker: "w0", subtask: "x", access: [] }], backend));
    expect(outcome).toMatchObject({ status: "failed", budgetExhausted: false });
  });

  it("a step the budget stops between retries failed (it was called), and the budget ran out", async () => {
    const backend = createFakeBackend([
      { error: new LlmError("server", undefined, 500) },
      answer("too late"),
    ]);
    const budget = new CallBudget(1);
    const steps: Step[] = [{ worker: "w0", subtask: "Flaky.", access: [] }];
    const { events, outcome } = await drain(start(steps, backend, { budget }));
    expect(ofType(events, "step_skip")).toEqual([]);
    expect(ofType(events, "step_error").map((e) => [e.step, e.code])).toEqual([[0, "budget"]]);
    expect(backend.calls).toHaveLength(1);
    expect(outcome).toMatchObject({ status: "failed", budgetExhausted: true });
  });
});

describe("a run whose signal has already aborted", () => {
  it("starts nothing: every step is cancelled, no backend or nested run is called", async () => {
    const controller = new AbortController();
    controller.abort();
    const backend = createFakeBackend([answer("ok")]);
    const nested = vi.fn(scriptedNested({ status: "done", answer: "nested" }).runner);
    const steps: Step[] = [
      { worker: "w0", subtask: "Plain.", access: [] },
      { worker: "self", subtask: "Nested.", access: [] },
      { worker: "gone", subtask: "Missing worker.", access: [] },
    ];
    const { events, outcome } = await drain(
      start(steps, backend, { signal: controller.signal, nested }),
    );
    expect(events.map((e) => e.type).filter((t) => t !== "step_queued")).toEqual([
      "step_cancel",
      "step_cancel",
      "step_cancel",
    ]);
    expect(backend.calls).toEqual([]);
    expect(nested).not.toHaveBeenCalled();
    expect(outcome).toEqual({
      status: "cancelled",
      outcomes: [{ status: "cancelled" }, { status: "cancelled" }, { status: "cancelled" }],
      answer: null,
      budgetExhausted: false,
    });
  });
});

describe("a step given to the Conductor itself (a nested run)", () => {
  const selfThenCheck: Step[] = [
    { worker: "self", subtask: "Solve it in depth.", access: [] },
    { worker: "w0", subtask: "Check the nested answer.", access: [0] },
  ];

  it("ends done with the nested answer, shown to the steps that see it", async () => {
    const backend = createFakeBackend([answer("Checked.")]);
    const { runner, seen } = scriptedNested({ status: "done", answer: "25 primes." });
    const { events, outcome } = await drain(start(selfThenCheck, backend, { nested: runner }));
    expect(seen).toEqual([{ parent: [{ round: 0, step: 0 }] }]);
    expect(outcome.outcomes[0]).toEqual({ status: "done", output: "25 primes." });
    expect(backend.calls[0]?.messages[0]?.content).toContain("25 primes.");
    expect(ofType(events, "step_finish")[0]).toMatchObject({ step: 0, output: "25 primes." });
  });

  it("sums each nested call once: an inner self step's own sum is not counted again", async () => {
    const inner: RunEvent[] = [
      { type: "plan_finish", at: 1, round: 0, raw: "", usage: usage(100, 10), cost: 1 },
      {
        type: "step_finish",
        at: 2,
        round: 0,
        step: 0,
        output: "a",
        usage: usage(20, 2),
        cost: 0.5,
      },
      // A deeper self step: its usage is the sum of calls already passed up one by one.
      {
        type: "step_finish",
        at: 3,
        round: 0,
        step: 1,
        output: "b",
        usage: usage(999, 999),
        cost: 99,
        aggregate: true,
      },
    ];
    const { runner } = scriptedNested({ status: "done", answer: "b" }, inner);
    const { events } = await drain(
      start([selfThenCheck[0]!], createFakeBackend([]), { nested: runner }),
    );
    const own = ofType(events, "step_finish").filter((f) => !f.parent);
    expect(own).toEqual([
      {
        type: "step_finish",
        at: 42,
        round: 0,
        step: 0,
        output: "b",
        usage: usage(120, 12),
        cost: 1.5,
        aggregate: true,
      },
    ]);
  });

  it("marks its own finish as a sum, so the level above does not count it twice", async () => {
    // Two levels: the outer self step runs a workflow whose only step is a self step again.
    const innermost = scriptedNested({ status: "done", answer: "deep" }, [
      { type: "plan_finish", at: 1, round: 0, raw: "", usage: usage(50, 5), cost: 2 },
    ]);
    const outer: NestedRunner = async function* ({ parent, signal }) {
      const inner = yield* executeWorkflow({
        question,
        steps: [{ worker: "self", subtask: "Go deeper.", access: [] }],
        pool,
        backendFor: () => createFakeBackend([]),
        signal,
        parent,
        nested: innermost.runner,
        now: () => 42,
      });
      return { status: "done", answer: inner.answer };
    };
    const { events } = await drain(
      start([selfThenCheck[0]!], createFakeBackend([]), { nested: outer }),
    );
    const top = ofType(events, "step_finish").find((f) => !f.parent);
    expect(top).toMatchObject({ output: "deep", usage: usage(50, 5), cost: 2 });
  });

  it("a nested run that answers nothing fails the step with empty_response", async () => {
    const { runner } = scriptedNested({ status: "done", answer: null });
    const { events, outcome } = await drain(
      start(selfThenCheck, createFakeBackend([]), { nested: runner }),
    );
    expect(ofType(events, "step_error")).toEqual([
      {
        type: "step_error",
        at: 42,
        round: 0,
        step: 0,
        code: "empty_response",
        message: failure("empty_response", "The nested workflow gave no answer.").message,
      },
    ]);
    expect(ofType(events, "step_skip").map((e) => [e.step, e.code])).toEqual([
      [1, "upstream_failed"],
    ]);
    expect(outcome).toMatchObject({ status: "failed", budgetExhausted: false });
  });

  it("a nested run that failed passes its code and message on; only a budget failure says the budget ran out", async () => {
    for (const code of ["upstream_failed", "budget"] as const) {
      const { runner } = scriptedNested({
        status: "failed",
        answer: null,
        code,
        message: `nested ${code}`,
      });
      const { events, outcome } = await drain(
        start(selfThenCheck, createFakeBackend([]), { nested: runner }),
      );
      expect(ofType(events, "step_error").map((e) => [e.step, e.code, e.message])).toEqual([
        [0, code, `nested ${code}`],
      ]);
      expect(outcome).toMatchObject({ status: "failed", budgetExhausted: code === "budget" });
    }
  });

  it("a nested run that was cancelled cancels the step and its dependants, and the workflow", async () => {
    const { runner } = scriptedNested(CANCELLED);
    const backend = createFakeBackend([answer("never")]);
    const { events, outcome } = await drain(start(selfThenCheck, backend, { nested: runner }));
    expect(ofType(events, "step_cancel").map((e) => e.step)).toEqual([0, 1]);
    expect(ofType(events, "step_error")).toEqual([]);
    expect(ofType(events, "step_skip")).toEqual([]);
    expect(backend.calls).toEqual([]);
    expect(outcome).toEqual({
      status: "cancelled",
      outcomes: [{ status: "cancelled" }, { status: "cancelled" }],
      answer: null,
      budgetExhausted: false,
    });
  });

  it("a cancelled step beside a finished one leaves the workflow cancelled, not done", async () => {
    const { runner } = scriptedNested(CANCELLED);
    const steps: Step[] = [
      { worker: "w0", subtask: "Plain.", access: [] },
      { worker: "self", subtask: "Nested.", access: [] },
    ];
    const { outcome } = await drain(
      start(steps, createFakeBackend([answer("fine")]), { nested: runner }),
    );
    expect(outcome.status).toBe("cancelled");
    expect(outcome.answer).toBeNull();
  });

  it("a nested run that fails because the user cancelled ends the step cancelled", async () => {
    const controller = new AbortController();
    const runner: NestedRunner = async function* ({ parent, messages }) {
      yield { type: "plan_start", at: 1, round: 0, messages, parent };
      controller.abort();
      await Promise.resolve();
      return { status: "failed", answer: null, code: "upstream_failed", message: "x" };
    };
    const { events, outcome } = await drain(
      start(selfThenCheck, createFakeBackend([]), { nested: runner, signal: controller.signal }),
    );
    expect(ofType(events, "step_cancel").map((e) => e.step)).toEqual([0, 1]);
    expect(ofType(events, "step_error")).toEqual([]);
    expect(outcome.status).toBe("cancelled");
  });
});
