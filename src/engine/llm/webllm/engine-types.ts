/** The small part of WebLLM's engine the in-browser backend uses, and the backend's own shape. */
import type { ChatMessage } from "../../schema/usage.ts";
import type { ChatBackend } from "../types.ts";

/** The request the backend sends: always streaming, always with usage. */
export interface SmallChatRequest {
  messages: ChatMessage[];
  stream: true;
  stream_options: { include_usage: true };
  temperature: number;
  max_tokens?: number;
  /** xgrammar-constrained decoding (the plan grammar). */
  response_format?: { type: "grammar"; grammar: string };
}

/** WebLLM's `CompletionUsage` as far as it is read; `extra` holds its speed figures. */
export interface SmallUsage {
  prompt_tokens: number;
  completion_tokens: number;
  extra?: {
    prefill_tokens_per_s?: number;
    decode_tokens_per_s?: number;
    time_to_first_token_s?: number;
    e2e_latency_s?: number;
  };
}

/** A `ChatCompletionChunk` as far as it is read. The last chunk has no choices and the usage. */
export interface SmallChunk {
  choices: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: SmallUsage | null;
}

/** Options for `reload`, a subset of WebLLM's `ChatOptions`. */
export interface SmallChatOptions {
  context_window_size?: number;
}

/** The part of WebLLM's `MLCEngineInterface` the backend uses; a real engine is one. */
export interface SmallEngine {
  chat: { completions: { create(request: SmallChatRequest): Promise<AsyncIterable<SmallChunk>> } };
  interruptGenerate(): void;
  reload(modelId: string, chatOpts?: SmallChatOptions): Promise<void>;
  unload(): Promise<void>;
  runtimeStatsText?(): Promise<string>;
}

/** WebLLM's speed figures for one generation. */
export interface WebLLMStats {
  prefillTokensPerSec: number;
  decodeTokensPerSec: number;
  timeToFirstTokenSec?: number;
}

export interface WebLLMBackendOptions {
  /** The model the engine has loaded (or will load through `load`). */
  modelId: string;
  /** Defaults to "<model id> (in this browser)". */
  label?: string;
  /** Called after each generation that reported WebLLM's speed figures. */
  onStats?: (stats: WebLLMStats) => void;
  /** The context window the model was loaded with (chatOpts.context_window_size or the record's). */
  contextWindow?: number;
}

/** The in-browser backend: a `ChatBackend` that can also switch or unload its model. */
export interface WebLLMBackend extends ChatBackend {
  /** The loaded model, or undefined after `unload`. */
  readonly modelId: string | undefined;
  /** Calls waiting for their turn (not counting the running one). */
  readonly waiting: number;
  readonly lastStats: WebLLMStats | undefined;
  /** Loads another model once the running generation ends; throws a coded `LlmError`. */
  load(modelId: string, chatOpts?: SmallChatOptions, signal?: AbortSignal): Promise<void>;
  /** Stops the running generation, fails the queued ones (model_not_loaded), frees GPU memory. */
  unload(): Promise<void>;
  /** WebLLM's own "prefill: x tok/s, decode: y tok/s" line, where the engine offers it. */
  runtimeStats(): Promise<string | undefined>;
}
