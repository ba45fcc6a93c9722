import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError, collect } from "../llm/types.ts";
import { JudgeMeter } from "./judge-meter.ts";
import {
  collect as collectRun,
  evaluation,
  items,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import { judgeScorer } from "./scorers/judge.ts";

const PRICE = { input: 1000, output: 1000 }; // $0.001 a token
const FAST = { baseDelayMs: 0, maxDelayMs: 0, maxAttempts: 3 };
const REQ = {
  messages: [{ role: "user" as const, content: "grade" }],
  temperature: 0,
  maxTokens: 8,
};
const USAGE = { promptTokens: 20, completionTokens: 5, estimated: false };

describe("the judge's meter", () => {
  it("retries a retryable failure like a worker call, counting each attempt as a call", async () => {
    const inner = createFakeBackend([
      { error: new LlmError("server") },
      { error: new LlmError("rate_limited") },
      { text: "VERDICT: CORRECT", usage: USAGE },
    ]);
    const meter = new JudgeMeter(inner, PRICE, FAST);
    const signal = AbortSignal.any([new AbortController().signal]);
    const { text } = await collect(meter.backend, REQ, signal);
    expect(text).toBe("VERDICT: CORRECT");
    expect(inner.calls).toHaveLength(3);
    const spend = meter.take(signal);
    expect(spend).toEqual({ calls: 3, tokens: 25, cost: expect.closeTo(0.025, 12) as unknown });
    expect(meter.take(signal)).toEqual({ calls: 0, tokens: 0, cost: 0 });
  });

  it("does not retry what cannot succeed, and stops after its attempts", async () => {
    const auth = createFakeBackend([{ error: new LlmError("auth") }]);
    const meter = new JudgeMeter(auth, PRICE, FAST);
    const signal = new AbortController().signal;
    await expect(collect(meter.backend, REQ, signal)).rejects.toMatchObject({ code: "auth" });
    expect(auth.calls).toHaveLength(1);
    const down = createFakeBackend([{ error: new LlmError("server") }]);
    const m2 = new JudgeMeter(down, PRICE, FAST);
    await expect(collect(m2.backend, REQ, signal)).rejects.toMatchObject({ code: "server" });
    expect(down.calls).toHaveLength(3);
    expect(m2.take(signal)).toEqual({ calls: 3, tokens: 0, cost: 0 });
  });

  it("keeps each item's spend apart, and estimates usage a server did not report", async () => {
    const inner = createFakeBackend([{ text: "VERDICT: INCORRECT", usage: null }]);
    const meter = new JudgeMeter(inner, PRICE, FAST);
    const a = AbortSignal.any([new AbortController().signal]);
    const b = AbortSignal.any([new AbortController().signal]);
    await collect(meter.backend, REQ, a);
    await collect(meter.backend, REQ, a);
    await collect(meter.backend, REQ, b);
    const sa = meter.take(a);
    const sb = meter.take(b);
    expect(sa.calls).toBe(2);
    expect(sb.calls).toBe(1);
    expect(sb.tokens).toBeGreaterThan(0);
    expect(sa.tokens).toBe(2 * sb.tokens);
    expect(sb.cost).toBeCloseTo(sb.tokens * 0.001, 12);
  });
});

describe("judge calls in an evaluation", () => {
  it("count in each item's cost, tokens and calls, and against the spending cap", async () => {
    const judgeBackend = createFakeBackend([{ text: "VERDICT: CORRECT", usage: USAGE }]);
    const meter = new JudgeMeter(judgeBackend, PRICE, FAST);
    const answer = createFakeBackend([
      { text: "Answer: 7", usage: { promptTokens: 1, completionTokens: 1, estimated: false } },
    ]);
    const free = [worker("a", { input: 0, output: 0 })];
    const c = await collectRun({
      evaluation: evaluation(free, {
        scorer: { id: "judge", options: {}, version: 1 },
        maxCost: 0.06,
        concurrency: 1,
      }),
      items: items(4),
      taskConcurrency: 1,
      backendFor: () => answer,
      scorer: judgeScorer({ backend: meter.backend }),
      judgeMeter: meter,
    });
    const [first] = c.results;
    expect(first).toMatchObject({
      correct: true,
      tokens: 2 + 25,
      calls: 2,
      judge: { calls: 1, tokens: 25 },
    });
    expect(first!.cost).toBeCloseTo(0.025, 12);
    // $0.025 an item, judged: the third would pass the $0.06 cap, so two run.
    expect(c.outcome.status).toBe("cost_cap");
    expect(c.results).toHaveLength(2);
    expect(c.outcome.cost).toBeCloseTo(0.05, 12);
  });

  it("names a failed judge's reason on the item, which stays unscored", async () => {
    const meter = new JudgeMeter(createFakeBackend([{ error: new LlmError("auth") }]), PRICE, FAST);
    const c = await collectRun({
      evaluation: evaluation([worker("a")], { scorer: { id: "judge", options: {}, version: 1 } }),
      items: items(1),
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      scorer: judgeScorer({ backend: meter.backend }),
      judgeMeter: meter,
    });
    expect(c.results[0]).toMatchObject({
      correct: null,
      error: null,
      reason: expect.stringMatching(
        /^The judge failed: The endpoint refused the API key/,
      ) as unknown,
      judge: { calls: 1, tokens: 0, cost: 0 },
    });
  });
});
