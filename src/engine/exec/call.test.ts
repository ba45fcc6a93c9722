import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorCode } from "../errors.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatBackend, ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import { callWithRetry, retryFields } from "./call.ts";
import type { CallHooks } from "./call.ts";
import type { RetryPolicy } from "./retry.ts";
import { retryDelay } from "./retry.ts";
import { llmErrorOf } from "../../test-support/engine/llm/llm-error.ts";

const request: ChatRequest = {
  messages: [{ role: "user", content: "What is 2 + 2?" }],
  temperature: 0.2,
  maxTokens: 64,
};
/** Tiny, deterministic backoff: real timers, but never long enough to matter. */
const fast: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1,
  maxDelayMs: 4,
  timeoutMs: 0,
  random: () => 0.5,
};

interface Trace {
  attempts: number[];
  retries: { attempt: number; delayMs: number; code: ErrorCode }[];
  deltas: string[];
}

function traced(extra: CallHooks = {}): { trace: Trace; hooks: CallHooks } {
  const trace: Trace = { attempts: [], retries: [], deltas: [] };
  const hooks: CallHooks = {
    onAttempt: (a) => trace.attempts.push(a),
    onDelta: (t) => trace.deltas.push(t),
    onRetry: (attempt, delayMs, e) => trace.retries.push({ attempt, delayMs, code: e.code }),
    ...extra,
  };
  return { trace, hooks };
}

function never(): Promise<void> {
  return new Promise<void>(() => undefined);
}

describe("callWithRetry", () => {
  it("returns the streamed text, the usage and one attempt when nothing fails", async () => {
    const backend = createFakeBackend([{ text: "It is four." }]);
    const { trace, hooks } = traced();
    const result = await callWithRetry(backend, request, new AbortController().signal, fast, hooks);
    expect(result.text).toBe("It is four.");
    expect(result.attempts).toBe(1);
    expect(result.usage.estimated).toBe(false);
    expect(trace.deltas.join("")).toBe("It is four.");
    expect(trace.attempts).toEqual([1]);
    expect(backend.calls).toEqual([request]);
  });

  it("estimates the usage when the backend reports none", async () => {
    const backend = createFakeBackend([{ text: "four", usage: null }]);
    const result = await callWithRetry(backend, request, new AbortController().signal, fast);
    expect(result.usage).toMatchObject({ estimated: true, completionTokens: 1 });
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });

  const retryable: [string, FakeReply][] = [
    ["429", { error: new LlmError("rate_limited", undefined, 429) }],
    ["500", { error: new LlmError("server", undefined, 500) }],
    ["503", { error: new LlmError("server", undefined, 503) }],
    [
      "a dropped stream",
      { text: "half an ans", failAfterChunks: 1, error: new LlmError("dropped") },
    ],
    ["a network error", { error: new LlmError("network") }],
    ["a timeout", { error: new LlmError("timeout", undefined, 408) }],
  ];
  it.each(retryable)("retries after %s and reports each retry", async (_name, failing) => {
    const backend = createFakeBackend([failing, failing, { text: "ok" }]);
    const { trace, hooks } = traced();
    const result = await callWithRetry(backend, request, new AbortController().signal, fast, hooks);
    expect(result).toMatchObject({ text: "ok", attempts: 3 });
    expect(backend.calls).toHaveLength(3);
    expect(trace.attempts).toEqual([1, 2, 3]);
    const code = failing.error?.code;
    // onRetry names the attempt about to start; delays are 1 then 2 ms (base 1, doubling, jitter 0.5 -> 3/4 of it rounded).
    expect(trace.retries).toEqual([
      { attempt: 2, delayMs: retryDelay(fast, 1, new LlmError("server")), code },
      { attempt: 3, delayMs: retryDelay(fast, 2, new LlmError("server")), code },
    ]);
  });

  it("gives up after maxAttempts and throws the last error", async () => {
    const backend = createFakeBackend([{ error: new LlmError("server", "bad gateway", 502) }]);
    const { trace, hooks } = traced();
    const policy = { ...fast, maxAttempts: 3 };
    const error = await llmErrorOf(
      callWithRetry(backend, request, new AbortController().signal, policy, hooks),
    );
    expect(error.code).toBe("server");
    expect(error.message).toContain("bad gateway");
    expect(backend.calls).toHaveLength(3);
    expect(trace.retries.map((r) => r.attempt)).toEqual([2, 3]);
  });

  it("uses Retry-After as the delay, capped at maxDelayMs", async () => {
    const backend = createFakeBackend([
      { error: new LlmError("rate_limited", undefined, 429, 3) },
      { error: new LlmError("rate_limited", undefined, 429, 60_000) },
      { text: "ok" },
    ]);
    const { trace, hooks } = traced();
    const policy = { ...fast, baseDelayMs: 0, maxDelayMs: 5 };
    await callWithRetry(backend, request, new AbortController().signal, policy, hooks);
    expect(trace.retries.map((r) => r.delayMs)).toEqual([3, 5]);
  });

  it.each<[ErrorCode, number | undefined]>([
    ["auth", 401],
    ["auth", 403],
    ["not_found", 404],
    ["bad_request", 400],
    ["context_length", 400],
    ["empty_response", undefined],
  ])("does not retry %s (%s)", async (code, status) => {
    const backend = createFakeBackend([
      { error: new LlmError(code, undefined, status) },
      { text: "ok" },
    ]);
    const { trace, hooks } = traced();
    const error = await llmErrorOf(
      callWithRetry(backend, request, new AbortController().signal, fast, hooks),
    );
    expect(error.code).toBe(code);
    expect(backend.calls).toHaveLength(1);
    expect(trace.retries).toEqual([]);
  });

  it("does not retry a non-LlmError thrown by a backend", async () => {
    const backend = createFakeBackend(() => {
      throw new TypeError("boom");
    });
    const error = await llmErrorOf(
      callWithRetry(backend, request, new AbortController().signal, fast),
    );
    expect(error.code).toBe("unknown");
    expect(error.message).toContain("boom");
  });

  it("makes no call when the signal is already aborted", async () => {
    const backend = createFakeBackend([{ text: "ok" }]);
    const controller = new AbortController();
    controller.abort();
    const error = await llmErrorOf(callWithRetry(backend, request, controller.signal, fast));
    expect(error.code).toBe("aborted");
    expect(backend.calls).toHaveLength(0);
  });

  it("does not retry once the signal aborts during a call", async () => {
    const controller = new AbortController();
    const backend = createFakeBackend([{ gate: never() }, { text: "ok" }]);
    const { trace, hooks } = traced({ onAttempt: () => queueMicrotask(() => controller.abort()) });
    const error = await llmErrorOf(callWithRetry(backend, request, controller.signal, fast, hooks));
    expect(error.code).toBe("aborted");
    expect(backend.calls).toHaveLength(1);
    expect(trace.retries).toEqual([]);
  });

  it("stops during the backoff when the signal aborts, without another call", async () => {
    const controller = new AbortController();
    const backend = createFakeBackend([
      { error: new LlmError("server", undefined, 500) },
      { text: "ok" },
    ]);
    const policy = { ...fast, baseDelayMs: 60_000, maxDelayMs: 60_000 };
    const hooks: CallHooks = { onRetry: () => controller.abort() };
    const error = await llmErrorOf(
      callWithRetry(backend, request, controller.signal, policy, hooks),
    );
    expect(error.code).toBe("aborted");
    expect(backend.calls).toHaveLength(1);
  });

  it("treats a backend that stops quietly on abort as aborted, not finished", async () => {
    const controller = new AbortController();
    const quiet: ChatBackend = {
      label: "quiet",
      continuesAssistant: true,
      async *stream(_request, signal) {
        await Promise.resolve();
        yield { type: "delta", text: "partial" };
        if (signal.aborted) return;
        yield { type: "delta", text: " more" };
      },
    };
    const hooks: CallHooks = { onDelta: () => controller.abort() };
    const error = await llmErrorOf(callWithRetry(quiet, request, controller.signal, fast, hooks));
    expect(error.code).toBe("aborted");
  });

  it("times out a call that never answers, then retries it", async () => {
    const backend = createFakeBackend([{ gate: never() }, { text: "late but fine" }]);
    const { trace, hooks } = traced();
    const policy = { ...fast, timeoutMs: 5 };
    const result = await callWithRetry(
      backend,
      request,
      new AbortController().signal,
      policy,
      hooks,
    );
    expect(result).toMatchObject({ text: "late but fine", attempts: 2 });
    expect(trace.retries.map((r) => r.code)).toEqual(["timeout"]);
  });

  it("fails with timeout when every attempt times out", async () => {
    const backend = createFakeBackend([{ gate: never() }]);
    const policy = { ...fast, timeoutMs: 2, maxAttempts: 2 };
    const error = await llmErrorOf(
      callWithRetry(backend, request, new AbortController().signal, policy),
    );
    expect(error.code).toBe("timeout");
    expect(backend.calls).toHaveLength(2);
  });

  it("restarts the text on a retry: only the final attempt's text is returned", async () => {
    const backend = createFakeBackend([
      { chunks: ["The answer ", "is fi"], failAfterChunks: 2, error: new LlmError("dropped") },
      { chunks: ["It ", "is 4."] },
    ]);
    const { trace, hooks } = traced();
    const result = await callWithRetry(backend, request, new AbortController().signal, fast, hooks);
    expect(result.text).toBe("It is 4.");
    expect(trace.deltas).toEqual(["The answer ", "is fi", "It ", "is 4."]);
  });

  it("asks mayCall before every attempt and stops with budget when it says no", async () => {
    let allowed = 2;
    const backend = createFakeBackend([{ error: new LlmError("server", undefined, 500) }]);
    const mayCall = vi.fn(() => allowed-- > 0);
    const error = await llmErrorOf(
      callWithRetry(backend, request, new AbortController().signal, fast, { mayCall }),
    );
    expect(error.code).toBe("budget");
    expect(backend.calls).toHaveLength(2);
    expect(mayCall).toHaveBeenCalledTimes(3);
  });
});

describe("callWithRetry's edges", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("returns the reasoning, also when nobody listens to it", async () => {
    const backend = createFakeBackend([{ reasoning: ["2 + 2 ", "is 4."], text: "Four." }]);
    const result = await callWithRetry(backend, request, new AbortController().signal, fast);
    expect(result).toMatchObject({ text: "Four.", reasoning: "2 + 2 is 4.", attempts: 1 });
  });

  it("passes no text on once the signal aborts, even from a backend that keeps streaming", async () => {
    const controller = new AbortController();
    const deaf: ChatBackend = {
      label: "deaf",
      continuesAssistant: true,
      async *stream() {
        await Promise.resolve();
        yield { type: "delta", text: "partial" };
        yield { type: "delta", text: " more" };
        yield { type: "delta", text: " and more" };
      },
    };
    const deltas: string[] = [];
    const hooks: CallHooks = {
      onDelta: (t) => {
        deltas.push(t);
        controller.abort();
      },
    };
    const error = await llmErrorOf(callWithRetry(deaf, request, controller.signal, fast, hooks));
    expect(error.code).toBe("aborted");
    expect(deltas).toEqual(["partial"]);
  });

  it("leaves no timer and no listener behind once a call is done", async () => {
    vi.useFakeTimers();
    const signal = new AbortController().signal;
    const add = vi.spyOn(signal, "addEventListener");
    const remove = vi.spyOn(signal, "removeEventListener");
    const backend = createFakeBackend([{ text: "ok" }]);
    await callWithRetry(backend, request, signal, { ...fast, timeoutMs: 180_000 });
    expect(vi.getTimerCount()).toBe(0);
    expect(add).toHaveBeenCalled();
    const removed = remove.mock.calls.map(([type, fn]) => [type, fn]);
    for (const [type, fn] of add.mock.calls) expect(removed).toContainEqual([type, fn]);
  });
});

describe("retryFields", () => {
  it("is what a retry event carries: attempt of all, the wait, the code, the status and the message", () => {
    const limited = new LlmError("rate_limited", "slow down", 429, 2000);
    expect(retryFields(2, 2000, limited, 4)).toEqual({
      attempt: 2,
      of: 4,
      delayMs: 2000,
      code: "rate_limited",
      status: 429,
      message: limited.message,
    });
  });

  it("carries no status for an error that had none", () => {
    const dropped = new LlmError("dropped");
    const fields = retryFields(3, 500, dropped, 4);
    expect(fields).not.toHaveProperty("status");
    expect(fields).toEqual({
      attempt: 3,
      of: 4,
      delayMs: 500,
      code: "dropped",
      message: dropped.message,
    });
  });
});
