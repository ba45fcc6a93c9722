/**
 * The GGUF chat backend: `ChatBackend` over llama.cpp compiled to WebAssembly (wllama), beside the
 * WebLLM one. It takes the small part of wllama's API it uses (`GgufEngine`), so the same backend
 * serves the browser (wllama's own Web Worker) and the CLI (a worker thread). Like the WebLLM
 * backend it runs one generation at a time (a FIFO of turns), does not continue assistant
 * messages, streams text deltas (a leading `<think>` block as reasoning) then one usage chunk, and
 * decodes under the plan grammar, translated to GBNF, so every plan parses.
 */
import type { Usage } from "../../schema/usage.ts";
import { estimateUsage } from "../token-estimate.ts";
import { ThinkSplitter } from "../think.ts";
import type { ChatBackend, ChatChunk, ChatRequest } from "../types.ts";
import { LlmError } from "../types.ts";
import { TurnQueue } from "../webllm/turns.ts";
import { toGbnf } from "./gbnf.ts";

/** One streamed chunk of wllama's `createChatCompletion` (the fields read here). */
export interface GgufChunk {
  choices: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  timings?: {
    prompt_n: number;
    cache_n: number;
    predicted_n: number;
    prompt_per_second: number;
    predicted_per_second: number;
  };
}

/** The request fields sent to wllama. */
export interface GgufChatParams {
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  stream: true;
  temperature: number;
  max_tokens?: number;
  grammar?: string;
  abortSignal: AbortSignal;
  onData: (chunk: GgufChunk) => void;
}

/** The part of wllama's `Wllama` the backend uses; a loaded `Wllama` is one. */
export interface GgufEngine {
  createChatCompletion(params: GgufChatParams): Promise<void>;
  exit(): Promise<void>;
}

/** Speed on this device, from llama.cpp's own timings. */
export interface GgufStats {
  prefillTokensPerSec: number;
  decodeTokensPerSec: number;
}

export interface GgufBackendOptions {
  /** The model's name as shown (its file name or catalogue id). */
  modelId: string;
  /** The context the model was loaded with (n_ctx). */
  contextWindow?: number;
  /** Called after each generation with llama.cpp's speed figures. */
  onStats?: (stats: GgufStats) => void;
}

export interface GgufBackend extends ChatBackend {
  readonly lastStats: GgufStats | undefined;
  /** Stops the running generation and frees the engine's memory. */
  unload(): Promise<void>;
}

/** The message for a wllama or llama.cpp failure, as a coded error. */
function toLlmError(e: unknown, request: ChatRequest, signal: AbortSignal): LlmError {
  if (e instanceof LlmError) return e;
  const text = e instanceof Error ? e.message : String(e);
  if (signal.aborted || (e instanceof Error && e.name === "AbortError")) {
    return new LlmError("aborted");
  }
  if (request.grammar !== undefined && /grammar|gbnf/i.test(text)) {
    return new LlmError("grammar_failed", text.slice(0, 300));
  }
  if (/context|kv.?cache/i.test(text)) return new LlmError("context_length", text.slice(0, 300));
  return new LlmError("unknown", text.slice(0, 300));
}

/** Rejects with "aborted" as soon as `signal` aborts; otherwise settles like `p`. */
function orAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LlmError("aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A chunk's token counts: its usage, or else llama.cpp's timings (which count the same). */
function usageOf(chunk: GgufChunk): Usage | undefined {
  if (chunk.usage) {
    const { prompt_tokens, completion_tokens } = chunk.usage;
    return { promptTokens: prompt_tokens, completionTokens: completion_tokens, estimated: false };
  }
  const t = chunk.timings;
  if (!t || t.predicted_n <= 0) return undefined;
  return {
    promptTokens: t.prompt_n + t.cache_n,
    completionTokens: t.predicted_n,
    estimated: false,
  };
}

function statsOf(chunk: GgufChunk): GgufStats | undefined {
  const t = chunk.timings;
  if (!t || !(t.predicted_per_second > 0)) return undefined;
  return { prefillTokensPerSec: t.prompt_per_second, decodeTokensPerSec: t.predicted_per_second };
}

/**
 * Creates the GGUF `ChatBackend` over a loaded engine. The grammar of a constrained call (the
 * xgrammar dialect the planner writes) reaches llama.cpp as GBNF; `onStats` gets each call's speed.
 */
export function createGgufBackend(engine: GgufEngine, opts: GgufBackendOptions): GgufBackend {
  const turns = new TurnQueue();
  let lastStats: GgufStats | undefined;
  let loaded = true;

  async function* stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    if (request.messages.at(-1)?.role !== "user") {
      throw new LlmError(
        "bad_request",
        "The in-browser model needs the last message to be the user's (it cannot continue an assistant message).",
      );
    }
    const release = await turns.acquire(signal);
    // wllama stops its request when this aborts; the turn passes on only once it has.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    let finished = false;
    let running: Promise<void> | undefined;
    try {
      if (!loaded) throw new LlmError("model_not_loaded");
      // wllama pushes chunks as llama.cpp makes them (onData); they wait here until read.
      const queue: GgufChunk[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      let failure: unknown;
      running = engine
        .createChatCompletion({
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
          stream: true,
          temperature: request.temperature,
          ...(request.maxTokens > 0 ? { max_tokens: request.maxTokens } : {}),
          ...(request.grammar !== undefined ? { grammar: toGbnf(request.grammar) } : {}),
          abortSignal: stop.signal,
          onData: (chunk) => {
            queue.push(chunk);
            wake?.();
          },
        })
        .then(
          () => void (ended = true),
          (e: unknown) => void ((failure = e), (ended = true)),
        )
        .finally(() => wake?.());
      let text = "";
      let usage: Usage | undefined;
      const think = new ThinkSplitter();
      for (;;) {
        for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
          for (const choice of chunk.choices) {
            const delta = choice.delta?.content;
            if (delta) {
              text += delta;
              yield* think.push(delta);
            }
          }
          usage = usageOf(chunk) ?? usage;
          lastStats = statsOf(chunk) ?? lastStats;
        }
        if (ended) break;
        await orAbort(new Promise<void>((resolve) => (wake = resolve)), signal);
        wake = undefined;
      }
      if (failure !== undefined) throw toLlmError(failure, request, signal);
      finished = true;
      if (signal.aborted) throw new LlmError("aborted");
      if (lastStats) opts.onStats?.(lastStats);
      yield* think.end();
      yield { type: "usage", usage: usage ?? estimateUsage(request.messages, text) };
    } catch (e: unknown) {
      throw toLlmError(e, request, signal);
    } finally {
      signal.removeEventListener("abort", onAbort);
      if (finished || !running) release();
      else {
        // Aborted, failed or left early: stop wllama's request, and hand the turn on once it ended.
        stop.abort();
        void running.finally(release);
      }
    }
  }

  return {
    label: `${opts.modelId} (GGUF, llama.cpp in this browser)`,
    continuesAssistant: false,
    contextWindow: opts.contextWindow,
    get lastStats() {
      return lastStats;
    },
    stream,
    async unload() {
      loaded = false;
      const release = await turns.acquire();
      try {
        await engine.exit();
      } finally {
        release();
      }
    },
  };
}
