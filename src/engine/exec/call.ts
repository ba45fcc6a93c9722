import { ErrorCode } from "../errors.ts";
import type { ChatBackend, ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import { estimateUsage } from "../llm/token-estimate.ts";
import type { UnopenedPiece } from "../llm/think.ts";
import { UnopenedThink } from "../llm/think.ts";
import type { ParentPath } from "../schema/events.ts";
import type { Usage } from "../schema/usage.ts";
import type { RetryPolicy } from "./retry.ts";
import { attemptSignal, retryDelay, sleep, toLlmError } from "./retry.ts";

export interface CallHooks {
  /** Before each attempt (1-based); a retry starts the text over. */
  onAttempt?: (attempt: number) => void;
  onDelta?: (text: string) => void;
  /** Reasoning streamed apart from the answer; a retry starts it over too. */
  onReasoning?: (text: string) => void;
  /**
   * The answer streamed so far in this attempt was reasoning (a `</think>` arrived that the prompt
   * had opened, as DeepSeek-R1's chat template does): drop it from the answer; `reasoning` is it,
   * to add to the reasoning. Later deltas are the answer.
   */
  onReclassify?: (reasoning: string) => void;
  /** Before waiting `delayMs` for attempt `attempt` of `of` in all, after `error`. */
  onRetry?: (attempt: number, delayMs: number, error: LlmError, of: number) => void;
  /**
   * Asked before every attempt; returning false stops with a `budget` error (docs/protocol.md §1.6
   * call cap).
   */
  mayCall?: () => boolean;
}

/**
 * A call's place in its run (`ChatRequest.site`): `r0.plan` (round 0's plan), `r1.s2` (round 1's
 * third step), a nested level after its parent's steps (`r0.s1/r0.s0`). The response cache keeps
 * the calls of one task apart by it, so a continued run never gets a kept step's answer again.
 */
export function callSite(parent: ParentPath | undefined, round: number, step: number | "plan") {
  const at = (r: number, s: number | "plan") => `r${r}.${s === "plan" ? "plan" : `s${s}`}`;
  return [...(parent ?? []).map((p) => at(p.round, p.step)), at(round, step)].join("/");
}

/** A retry as the run events carry it (plan_retry, step_retry), from `onRetry`'s arguments. */
export function retryFields(attempt: number, delayMs: number, error: LlmError, of: number) {
  return {
    attempt,
    of,
    delayMs,
    code: error.code,
    ...(error.status !== undefined ? { status: error.status } : {}),
    message: error.message,
  };
}

/**
 * One model call with bounded retries: exponential backoff with jitter on 429, 5xx, timeouts and
 * dropped or refused connections, honouring Retry-After; a per-attempt timeout; nothing is retried
 * once `signal` aborts. Throws the last LlmError when it gives up.
 */
export async function callWithRetry(
  backend: ChatBackend,
  request: ChatRequest,
  signal: AbortSignal,
  policy: RetryPolicy,
  hooks: CallHooks = {},
): Promise<{ text: string; reasoning: string; usage: Usage; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    if (signal.aborted) throw new LlmError("aborted");
    if (hooks.mayCall && !hooks.mayCall()) throw new LlmError("budget");
    hooks.onAttempt?.(attempt);
    const scoped = attemptSignal(signal, policy.timeoutMs);
    let text = "";
    let reasoning = "";
    let usage: Usage | undefined;
    // Answer text that turns out to be reasoning once a bare `</think>` arrives.
    const unopened = new UnopenedThink();
    const answer = (pieces: UnopenedPiece[]) => {
      for (const piece of pieces) {
        if (piece.type === "delta") {
          text += piece.text;
          hooks.onDelta?.(piece.text);
        } else {
          text = "";
          reasoning += piece.text;
          hooks.onReclassify?.(piece.text);
        }
      }
    };
    try {
      for await (const chunk of backend.stream(request, scoped.signal)) {
        if (scoped.signal.aborted) break;
        if (chunk.type === "delta") answer(unopened.push(chunk.text));
        else if (chunk.type === "reasoning") {
          reasoning += chunk.text;
          hooks.onReasoning?.(chunk.text);
        } else usage = chunk.usage;
      }
      // A backend that stops quietly on abort must not pass for a finished call.
      if (scoped.signal.aborted) throw new LlmError("aborted");
      answer(unopened.end());
      return {
        text,
        reasoning,
        usage: usage ?? estimateUsage(request.messages, text + reasoning),
        attempts: attempt,
      };
    } catch (e: unknown) {
      const error = toLlmError(e, signal, scoped.timedOut());
      if (error.code === ErrorCode.aborted || !error.retryable || attempt >= policy.maxAttempts)
        throw error;
      const delay = retryDelay(policy, attempt, error);
      hooks.onRetry?.(attempt + 1, delay, error, policy.maxAttempts);
      await sleep(delay, signal);
    } finally {
      scoped.dispose();
    }
  }
}
