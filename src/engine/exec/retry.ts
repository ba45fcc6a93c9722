import { LlmError } from "../llm/types.ts";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per-call timeout; 0 disables it. */
  timeoutMs: number;
  /** Source of randomness for jitter, injectable so tests are deterministic. */
  random?: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  timeoutMs: 180_000,
};

/**
 * Delay before attempt `attempt + 1`: the server's Retry-After when it gave one (capped), else
 * exponential backoff with "equal jitter" (half fixed, half random) so parallel steps spread out.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, error: LlmError): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const random = policy.random ?? Math.random;
  return Math.round(exp / 2 + (exp / 2) * random());
}

/** Resolves after `ms`, or rejects with an `aborted` LlmError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new LlmError("aborted"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A signal for one attempt: aborts when the run's signal does, or after `timeoutMs`. `timedOut()`
 * tells the two apart so a timeout can be retried while a cancel never is.
 */
export function attemptSignal(parent: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(parent.reason);
  // A parent that has already aborted fires no further event: carry its state over now.
  if (parent.aborted) onAbort();
  else parent.addEventListener("abort", onAbort, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new LlmError("timeout"));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}

/** Normalises anything thrown by a backend into an LlmError. */
export function toLlmError(e: unknown, parent: AbortSignal, timedOut: boolean): LlmError {
  if (timedOut) return new LlmError("timeout");
  if (parent.aborted) return new LlmError("aborted");
  if (e instanceof LlmError) return e;
  const detail = e instanceof Error ? e.message : String(e);
  return new LlmError("unknown", detail);
}

/** What a waiting retry shows: "retrying 2 of 4 in 3 s after 429" (or after the error's code). */
export function describeRetry(retry: {
  attempt: number;
  of: number | null;
  delayMs: number;
  code: string;
  status: number | null;
}): string {
  const seconds = retry.delayMs / 1000;
  const wait =
    seconds >= 1
      ? `in ${Math.round(seconds)} s`
      : seconds > 0
        ? `in ${seconds.toFixed(1)} s`
        : "now";
  const reason = retry.status ?? retry.code.replace(/_/g, " ");
  return `retrying ${retry.attempt}${retry.of ? ` of ${retry.of}` : ""} ${wait} after ${reason}`;
}
