/**
 * The in-browser chat backend: `ChatBackend` over the small part of WebLLM's engine the studio uses.
 * One engine runs one generation at a time, and the backend is shared (the Conductor, and steps
 * that use the in-browser model as a worker), so calls wait their turn in a FIFO queue.
 */
import type { ChatMessage, Usage } from "../../schema/usage.ts";
import { estimateUsage } from "../token-estimate.ts";
import { ThinkSplitter } from "../think.ts";
import type { ChatChunk, ChatRequest } from "../types.ts";
import { LlmError } from "../types.ts";
import { toWebLLMError } from "./webllm-errors.ts";
import { createTokenCounter } from "./tokens.ts";
import { TurnQueue } from "./turns.ts";
import type {
  SmallChatOptions,
  SmallChunk,
  SmallEngine,
  SmallUsage,
  WebLLMBackend,
  WebLLMBackendOptions,
  WebLLMStats,
} from "./engine-types.ts";

// Callers take the engine's types from here, beside the backend that uses them.
export type * from "./engine-types.ts";

const ABORTED = Symbol("aborted");

/** Resolves with `p`, or with ABORTED as soon as `signal` aborts (p keeps running). */
function unlessAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  let onAbort = () => {};
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([p, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}

/**
 * WebLLM rejects a trailing assistant message; callers fold it into the user turn
 * (docs/protocol.md §1.4).
 */
function checkMessages(messages: ChatMessage[]): void {
  const last = messages.at(-1);
  if (!last || last.role !== "user") {
    throw new LlmError(
      "bad_request",
      "The in-browser model needs the last message to be the user's (it cannot continue an assistant message).",
    );
  }
}

function statsOf(usage: SmallUsage): WebLLMStats | undefined {
  const extra = usage.extra;
  if (extra?.prefill_tokens_per_s === undefined || extra.decode_tokens_per_s === undefined) {
    return undefined;
  }
  return {
    prefillTokensPerSec: extra.prefill_tokens_per_s,
    decodeTokensPerSec: extra.decode_tokens_per_s,
    ...(extra.time_to_first_token_s !== undefined
      ? { timeToFirstTokenSec: extra.time_to_first_token_s }
      : {}),
  };
}

/**
 * A failure to compile the request's grammar (xgrammar reports EBNF errors and aborts), as a
 * `grammar_failed` error the planner answers by planning unconstrained; undefined for others.
 */
function grammarError(e: unknown, request: ChatRequest, signal: AbortSignal): LlmError | undefined {
  if (request.grammar === undefined || signal.aborted || e instanceof LlmError) return undefined;
  const text = e instanceof Error ? e.message : String(e);
  if (!/grammar|EBNF|xgrammar|Aborted\(\)/i.test(text)) return undefined;
  return new LlmError("grammar_failed", text.slice(0, 300));
}

/**
 * Lets an abandoned generation finish inside the engine before the next turn starts: waits for
 * the call in flight, then closes the stream (WebLLM's worker iterator then ends its generator and
 * releases the model). Never throws.
 */
async function settle(
  inFlight: Promise<unknown> | undefined,
  created: Promise<AsyncIterable<SmallChunk>> | undefined,
  iterator: AsyncIterator<SmallChunk> | undefined,
): Promise<void> {
  await inFlight?.catch(() => undefined);
  let it = iterator;
  if (!it) {
    const chunks = await created?.catch(() => undefined);
    it = chunks?.[Symbol.asyncIterator]();
  }
  await it?.return?.()?.catch(() => undefined);
}

/**
 * Creates the in-browser `ChatBackend` over an engine that has `opts.modelId` loaded. It does not
 * continue assistant messages, streams text deltas (a leading `<think>` block as reasoning) then
 * one usage chunk, reports WebLLM's speed figures through `onStats`, interrupts the engine when the
 * signal aborts, and classifies errors.
 */
export function createWebLLMBackend(
  engine: SmallEngine,
  opts: WebLLMBackendOptions,
): WebLLMBackend {
  const turns = new TurnQueue();
  let modelId: string | undefined = opts.modelId;
  let lastStats: WebLLMStats | undefined;
  let contextWindow = opts.contextWindow;
  const tokens = createTokenCounter();

  const interrupt = () => {
    try {
      engine.interruptGenerate();
    } catch {
      // The engine may already be gone (worker terminated); nothing to stop then.
    }
  };

  async function* stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    checkMessages(request.messages);
    const release = await turns.acquire(signal);
    const onAbort = () => interrupt();
    signal.addEventListener("abort", onAbort, { once: true });
    let finished = false;
    let inFlight: Promise<unknown> | undefined;
    let iterator: AsyncIterator<SmallChunk> | undefined;
    let created: Promise<AsyncIterable<SmallChunk>> | undefined;
    try {
      if (!modelId) throw new LlmError("model_not_loaded");
      created = engine.chat.completions.create({
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        stream: true,
        stream_options: { include_usage: true },
        temperature: request.temperature,
        ...(request.maxTokens > 0 ? { max_tokens: request.maxTokens } : {}),
        ...(request.grammar !== undefined
          ? { response_format: { type: "grammar", grammar: request.grammar } }
          : {}),
      });
      inFlight = created;
      const chunks = await unlessAborted(created, signal);
      inFlight = undefined;
      if (chunks === ABORTED) throw new LlmError("aborted");
      iterator = chunks[Symbol.asyncIterator]();
      let text = "";
      let usage: Usage | undefined;
      let interrupted = false;
      // Qwen3 and R1 distills write their reasoning inline, in a leading `<think>` block.
      const think = new ThinkSplitter();
      for (;;) {
        const next = iterator.next();
        inFlight = next;
        const result = await unlessAborted(next, signal);
        inFlight = undefined;
        if (result === ABORTED) throw new LlmError("aborted");
        if (result.done) break;
        for (const choice of result.value.choices) {
          const delta = choice.delta?.content;
          if (delta) {
            text += delta;
            yield* think.push(delta);
          }
          if (choice.finish_reason === "abort") interrupted = true;
        }
        const wire = result.value.usage;
        if (wire) {
          usage = {
            promptTokens: wire.prompt_tokens,
            completionTokens: wire.completion_tokens,
            estimated: false,
          };
          tokens.observe(request.messages, wire.prompt_tokens);
          const stats = statsOf(wire);
          if (stats) {
            lastStats = stats;
            opts.onStats?.(stats);
          }
        }
      }
      finished = true;
      if (signal.aborted) throw new LlmError("aborted");
      if (interrupted) throw new LlmError("aborted", "The generation was interrupted.");
      yield* think.end();
      yield { type: "usage", usage: usage ?? estimateUsage(request.messages, text) };
    } catch (e: unknown) {
      throw grammarError(e, request, signal) ?? toWebLLMError(e, signal);
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (finished) release();
      else {
        // Aborted, failed, or the consumer stopped early: stop the engine, and hand the turn on
        // only once it has really stopped, so two generations never overlap.
        if (!signal.aborted) interrupt(); // an abort has already interrupted it
        void settle(inFlight, created, iterator).finally(release);
      }
    }
  }

  async function load(
    id: string,
    chatOpts?: SmallChatOptions,
    signal?: AbortSignal,
  ): Promise<void> {
    const release = await turns.acquire(signal);
    const onAbort = () => void engine.unload().catch(() => undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      modelId = undefined;
      await engine.reload(id, chatOpts);
      if (signal?.aborted) throw new LlmError("aborted");
      modelId = id;
      contextWindow = chatOpts?.context_window_size ?? contextWindow;
    } catch (e: unknown) {
      throw toWebLLMError(e, signal);
    } finally {
      signal?.removeEventListener("abort", onAbort);
      release();
    }
  }

  async function unload(): Promise<void> {
    // Queued calls fail fast with model_not_loaded once their turn comes; the running one stops.
    modelId = undefined;
    interrupt();
    const release = await turns.acquire();
    try {
      await engine.unload();
    } catch (e: unknown) {
      throw toWebLLMError(e);
    } finally {
      release();
    }
  }

  return {
    get label() {
      return opts.label ?? `${modelId ?? opts.modelId} (in this browser)`;
    },
    continuesAssistant: false,
    get contextWindow() {
      return contextWindow;
    },
    countTokens: (messages) => tokens.count(messages),
    get modelId() {
      return modelId;
    },
    get waiting() {
      return turns.waiting;
    },
    get lastStats() {
      return lastStats;
    },
    stream,
    load,
    unload,
    async runtimeStats() {
      try {
        return await engine.runtimeStatsText?.();
      } catch {
        return undefined;
      }
    },
  };
}
