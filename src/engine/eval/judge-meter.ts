import { callCost } from "../cost.ts";
import type { RetryPolicy } from "../exec/retry.ts";
import { DEFAULT_RETRY, attemptSignal, retryDelay, sleep, toLlmError } from "../exec/retry.ts";
import { estimateUsage } from "../llm/token-estimate.ts";
import type { CallScope, ChatBackend, ChatChunk, ChatRequest } from "../llm/types.ts";
import type { Price } from "../schema/worker.ts";

/** What an item's judge calls spent: attempts that failed count as calls, with no tokens. */
export interface JudgeSpend {
  calls: number;
  tokens: number;
  cost: number;
}

const none = (): JudgeSpend => ({ calls: 0, tokens: 0, cost: 0 });

/**
 * The LLM judge's backend, retried like a worker's call (the same policy: attempts, backoff,
 * Retry-After, per-attempt time-out) and metered per item: the evaluation passes each item's
 * scoring its own AbortSignal, and `take(signal)` returns what that item's judge calls spent, so
 * they count in the item's cost, tokens and calls and against the spending cap.
 */
export class JudgeMeter {
  private readonly spend = new WeakMap<AbortSignal, JudgeSpend>();
  private readonly scopes = new WeakMap<AbortSignal, CallScope>();
  private readonly policy: RetryPolicy;
  readonly backend: ChatBackend;

  constructor(
    private readonly inner: ChatBackend,
    private readonly price: Price | undefined,
    retry: Partial<RetryPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_RETRY, ...retry };
    this.backend = {
      label: inner.label,
      continuesAssistant: inner.continuesAssistant,
      stream: (request, signal) => this.stream(request, signal),
    };
  }

  /**
   * The judge's calls under `signal` are calls of `scope` (the item's task), at place `judge`: a
   * response cache that keeps repeats distinct gives each task its own verdict.
   */
  scopeTo(signal: AbortSignal, scope: CallScope): void {
    this.scopes.set(signal, scope);
  }

  /** The spend recorded under `signal` since the last take, then forgotten. */
  take(signal: AbortSignal): JudgeSpend {
    const s = this.spend.get(signal) ?? none();
    this.spend.delete(signal);
    return s;
  }

  private add(signal: AbortSignal, calls: number, tokens: number, cost: number) {
    const s = this.spend.get(signal) ?? none();
    this.spend.set(signal, {
      calls: s.calls + calls,
      tokens: s.tokens + tokens,
      cost: s.cost + cost,
    });
  }

  /** One attempt after another; an attempt's chunks pass on only when it succeeded whole. */
  private async *stream(asked: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
    const scope = this.scopes.get(signal);
    const request = scope ? { ...asked, scope, site: "judge" } : asked;
    for (let attempt = 1; ; attempt++) {
      const a = attemptSignal(signal, this.policy.timeoutMs);
      const chunks: ChatChunk[] = [];
      try {
        for await (const chunk of this.inner.stream(request, a.signal)) chunks.push(chunk);
      } catch (e: unknown) {
        const err = toLlmError(e, signal, a.timedOut());
        this.add(signal, 1, 0, 0);
        if (!err.retryable || attempt >= this.policy.maxAttempts) throw err;
        await sleep(retryDelay(this.policy, attempt, err), signal);
        continue;
      } finally {
        a.dispose();
      }
      const reported = chunks.findLast((c) => c.type === "usage");
      const text = chunks.map((c) => (c.type === "delta" ? c.text : "")).join("");
      const usage = reported?.usage ?? estimateUsage(request.messages, text);
      this.add(signal, 1, usage.promptTokens + usage.completionTokens, callCost(usage, this.price));
      yield* chunks;
      return;
    }
  }
}
