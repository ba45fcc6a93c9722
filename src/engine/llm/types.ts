import type { ChatMessage, Usage } from "../schema/usage.ts";
import type { ErrorCode } from "../errors.ts";
import { ERROR_MESSAGES } from "../errors.ts";

export interface ChatRequest {
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number;
  /**
   * Extra fields merged into the request body (a worker's `reasoning_effort`,
   * `chat_template_kwargs`, provider routing; a Conductor's grammar). They cannot replace `model`,
   * `messages` or `stream`: a backend refuses such a request with a `bad_request` error.
   */
  extraBody?: Record<string, unknown>;
  /**
   * An EBNF grammar (xgrammar's dialect) the output must follow, for backends that constrain
   * decoding themselves (the in-browser model); others ignore it.
   */
  grammar?: string;
  /**
   * The evaluation task the call belongs to, for a response cache that keeps repeats distinct
   * (llm/cache.ts): identical requests count within it. Never sent to a provider.
   */
  scope?: CallScope;
  /** The call's place in its run (exec/call.ts `callSite`), for the same cache. Never sent either. */
  site?: string;
}

/**
 * An evaluation task (item, strategy, repeat) as the response cache sees it: one object per run of
 * the task, whose identity holds the counts of its identical requests (freed with it).
 */
export interface CallScope {
  readonly task: string;
}

/**
 * What a backend streams: answer text (`delta`), reasoning kept apart from the answer
 * (`reasoning`: reasoning fields, thinking parts, a leading `<think>` block) and, last, usage.
 */
export type ChatChunk =
  | { type: "delta"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "usage"; usage: Usage };

/**
 * The small interface every chat model sits behind: the OpenAI-compatible adapter, the in-browser
 * WebLLM worker and the scripted test fake. `stream` yields text deltas (and reasoning deltas, never
 * mixed into the text) and, last, one usage chunk;
 * it throws an `LlmError` on failure and stops promptly when `signal` aborts.
 */
export interface ChatBackend {
  /** A short human label, e.g. "gpt-5 @ api.openai.com". Never contains a key. */
  readonly label: string;
  /** Whether a trailing assistant message is continued (true) or must be folded into the user turn. */
  readonly continuesAssistant: boolean;
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk>;
  /** The context window in tokens, where the backend knows it (the in-browser model). */
  readonly contextWindow?: number;
  /** Counts the prompt tokens of `messages` as the model will see them, where it can. */
  countTokens?(messages: ChatMessage[]): number | Promise<number>;
}

const RETRYABLE: ReadonlySet<ErrorCode> = new Set([
  "rate_limited",
  "server",
  "network",
  "dropped",
  "timeout",
]);

/** A model-call failure with a stable code; `retryAfterMs` carries a server's Retry-After. */
export class LlmError extends Error {
  override readonly name = "LlmError";
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(detail ? `${ERROR_MESSAGES[code]} ${detail}` : ERROR_MESSAGES[code]);
  }
  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }
}

/** Maps an HTTP status to an error code. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status === 408) return "timeout";
  if (status === 413) return "request_too_large";
  if (status === 400 || status === 422) return "bad_request";
  if (status >= 500) return "server";
  return "unknown";
}

/** Drains a stream into its full text, its reasoning (kept apart) and usage. */
export async function collect(
  backend: ChatBackend,
  request: ChatRequest,
  signal: AbortSignal,
  onDelta?: (text: string) => void,
): Promise<{ text: string; reasoning: string; usage: Usage | undefined }> {
  let text = "";
  let reasoning = "";
  let usage: Usage | undefined;
  for await (const chunk of backend.stream(request, signal)) {
    if (chunk.type === "delta") {
      text += chunk.text;
      onDelta?.(chunk.text);
    } else if (chunk.type === "reasoning") reasoning += chunk.text;
    else usage = chunk.usage;
  }
  return { text, reasoning, usage };
}
