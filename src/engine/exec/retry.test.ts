import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { LlmError } from "../llm/types.ts";
import type { RetryPolicy } from "./retry.ts";
import {
  DEFAULT_RETRY,
  attemptSignal,
  describeRetry,
  retryDelay,
  sleep,
  toLlmError,
} from "./retry.ts";
import { llmErrorOf } from "../../test-support/engine/llm/llm-error.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("retryDelay", () => {
  const policy: RetryPolicy = {
    maxAttempts: 8,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    timeoutMs: 0,
  };
  const server = new LlmError("server");

  it("grows exponentially, with equal jitter between half and all of the step", () => {
    const low = [1, 2, 3, 4, 5].map((a) => retryDelay({ ...policy, random: () => 0 }, a, server));
    const high = [1, 2, 3, 4, 5].map((a) => retryDelay({ ...policy, random: () => 1 }, a, server));
    expect(low).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(high).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  it("caps the backoff at maxDelayMs", () => {
    const top = { ...policy, random: () => 1 };
    expect(retryDelay(top, 6, server)).toBe(30_000);
    expect(retryDelay(top, 20, server)).toBe(30_000);
    expect(retryDelay({ ...policy, random: () => 0 }, 20, server)).toBe(15_000);
  });

  it("stays within the bounds with the default randomness", () => {
    for (let i = 0; i < 200; i++) {
      const attempt = (i % 4) + 1;
      const exp = 1000 * 2 ** (attempt - 1);
      const delay = retryDelay(policy, attempt, server);
      expect(delay).toBeGreaterThanOrEqual(exp / 2);
      expect(delay).toBeLessThanOrEqual(exp);
    }
  });

  it("honours Retry-After over the backoff, capped", () => {
    expect(retryDelay(policy, 1, new LlmError("rate_limited", undefined, 429, 7000))).toBe(7000);
    expect(retryDelay(policy, 1, new LlmError("rate_limited", undefined, 429, 0))).toBe(0);
    expect(retryDelay(policy, 3, new LlmError("rate_limited", undefined, 429, 90_000))).toBe(
      30_000,
    );
  });
});

describe("sleep", () => {
  it("resolves after the delay", async () => {
    vi.useFakeTimers();
    let done = false;
    const p = sleep(1000, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
  });

  it("leaves no listener on the signal once it has waited", async () => {
    vi.useFakeTimers();
    const signal = new AbortController().signal;
    const add = vi.spyOn(signal, "addEventListener");
    const remove = vi.spyOn(signal, "removeEventListener");
    const p = sleep(1000, signal);
    await vi.advanceTimersByTimeAsync(1000);
    await p;
    expect(add).toHaveBeenCalledTimes(1);
    expect(remove.mock.calls.map(([type, fn]) => [type, fn])).toContainEqual(
      add.mock.calls.map(([type, fn]) => [type, fn])[0],
    );
  });

  it("rejects with aborted as soon as the signal aborts, or at once if it already has", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const p = sleep(60_000, controller.signal);
    controller.abort();
    expect((await llmErrorOf(p)).code).toBe("aborted");
    expect((await llmErrorOf(sleep(10, controller.signal))).code).toBe("aborted");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("attemptSignal", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  /** The attempt's signal under `parent` (by default one that never aborts), disposed when the test ends. */
  function attempt(timeoutMs: number, parent = new AbortController().signal) {
    const scoped = attemptSignal(parent, timeoutMs);
    onTestFinished(() => scoped.dispose());
    return scoped;
  }

  it("aborts when the parent does, and is not a timeout then", () => {
    const parent = new AbortController();
    const scoped = attempt(0, parent.signal);
    expect(scoped.signal.aborted).toBe(false);
    parent.abort();
    expect(scoped.signal.aborted).toBe(true);
    expect(scoped.timedOut()).toBe(false);
  });

  it("is aborted at once when the parent already is", () => {
    const parent = new AbortController();
    parent.abort();
    const scoped = attempt(1000, parent.signal);
    expect(scoped.signal.aborted).toBe(true);
    expect(scoped.timedOut()).toBe(false);
  });

  it("aborts after timeoutMs and says it timed out", () => {
    const scoped = attempt(500);
    vi.advanceTimersByTime(499);
    expect(scoped.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(scoped.signal.aborted).toBe(true);
    expect(scoped.timedOut()).toBe(true);
  });

  it("never times out when timeoutMs is 0", () => {
    const scoped = attempt(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3_600_000);
    expect(scoped.signal.aborted).toBe(false);
    expect(scoped.timedOut()).toBe(false);
  });

  it("aborts with a timeout error as the reason, so a backend that rethrows it reports a timeout", () => {
    const scoped = attempt(500);
    vi.advanceTimersByTime(500);
    const reason: unknown = scoped.signal.reason;
    expect(reason).toBeInstanceOf(LlmError);
    expect((reason as LlmError).code).toBe("timeout");
  });

  it("stops its timer and its parent listener on dispose", () => {
    const parent = new AbortController();
    const scoped = attemptSignal(parent.signal, 500);
    scoped.dispose();
    vi.advanceTimersByTime(1000);
    parent.abort();
    expect(scoped.signal.aborted).toBe(false);
  });
});

describe("toLlmError", () => {
  const live = new AbortController().signal;
  it("says timeout when the attempt timed out, aborted when the run was cancelled", () => {
    const cancelled = new AbortController();
    cancelled.abort();
    expect(toLlmError(new LlmError("aborted"), live, true).code).toBe("timeout");
    expect(toLlmError(new LlmError("server"), cancelled.signal, false).code).toBe("aborted");
  });

  it("passes LlmErrors through and wraps anything else as unknown", () => {
    const e = new LlmError("rate_limited", undefined, 429, 100);
    expect(toLlmError(e, live, false)).toBe(e);
    expect(toLlmError(new Error("socket hang up"), live, false)).toMatchObject({ code: "unknown" });
    expect(toLlmError("weird", live, false).message).toContain("weird");
  });
});

describe("describeRetry", () => {
  const base = { attempt: 2, of: 4, delayMs: 3_000, code: "rate_limited", status: 429 };
  it("says which attempt, how long, and after what", () => {
    expect(describeRetry(base)).toBe("retrying 2 of 4 in 3 s after 429");
    expect(describeRetry({ ...base, status: null, code: "dropped", delayMs: 400 })).toBe(
      "retrying 2 of 4 in 0.4 s after dropped",
    );
    expect(describeRetry({ ...base, of: null, delayMs: 0 })).toBe("retrying 2 now after 429");
    expect(describeRetry({ ...base, delayMs: 1000 })).toBe("retrying 2 of 4 in 1 s after 429");
    expect(describeRetry({ ...base, status: null, code: "rate_limited" })).toBe(
      "retrying 2 of 4 in 3 s after rate limited",
    );
  });
});

describe("DEFAULT_RETRY", () => {
  it("is four attempts, backoff from 1 s capped at 30 s, and a 3-minute timeout per attempt", () => {
    expect(DEFAULT_RETRY).toEqual({
      maxAttempts: 4,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
      timeoutMs: 180_000,
    });
    // The backoff it gives: 1 s, 2 s, 4 s (equal jitter: between half and all of each).
    const mid = { ...DEFAULT_RETRY, random: () => 1 };
    const err = new LlmError("server", undefined, 500);
    expect([1, 2, 3, 10].map((a) => retryDelay(mid, a, err))).toEqual([1000, 2000, 4000, 30_000]);
  });
});
