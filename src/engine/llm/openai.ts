import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { extraBodyProblem } from "../schema/worker.ts";
import { estimateUsage } from "./token-estimate.ts";
import { toLlmError } from "./openai-errors.ts";
import { StreamReader } from "./openai-stream.ts";
import { readSse } from "./sse.ts";
import type { ChatBackend, ChatChunk, ChatRequest } from "./types.ts";
import { LlmError } from "./types.ts";

export { estimateTokens } from "./token-estimate.ts";

/** Settings of one OpenAI-compatible chat endpoint. */
export interface OpenAIBackendOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer ...` to `baseURL` only; without one no Authorization is sent. */
  apiKey?: string;
  /** Extra headers for every call (they may replace Authorization, e.g. for a proxy). */
  headers?: Record<string, string>;
  /** Defaults to `model @ host`. */
  label?: string;
  /** How long to wait for the response to start (headers); 120 s by default. */
  timeoutMs?: number;
  /**
   * The longest silence allowed once the response has started: between two stream frames, and
   * before the first. Unlike the per-attempt time-out, a slow stream that keeps sending is never
   * cut by it. Off (0 or absent) by default.
   */
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
  /** Whether the endpoint continues a trailing assistant message (default false). */
  continuesAssistant?: boolean;
  /** Which field carries the token limit; OpenAI's own API wants `max_completion_tokens`. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

/**
 * The client's telemetry headers (X-Stainless-*) make every browser call a CORS preflight that some
 * providers refuse (Mistral rejects x-stainless-timeout); they tell the server nothing it needs.
 */
const NO_STAINLESS_HEADERS: Record<string, null> = Object.fromEntries(
  [
    "Retry-Count",
    "Timeout",
    "Lang",
    "Package-Version",
    "OS",
    "Arch",
    "Runtime",
    "Runtime-Version",
  ].map((h) => [`X-Stainless-${h}`, null]),
);

/** The OpenAI client insists on some key; this one never leaves because Authorization is unset. */
const PLACEHOLDER_KEY = "not-needed";

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/**
 * A chat backend for any OpenAI-compatible endpoint, over the `openai` package. It streams with usage
 * requested, keeps reasoning apart from the answer, falls back to an estimate (marked `estimated`)
 * when the server sends no usage, never lets the client retry (the executor does), and maps every
 * failure, errors sent inside a 200 stream included, to a coded `LlmError`.
 */
export function createOpenAIBackend(options: OpenAIBackendOptions): ChatBackend {
  const host = hostOf(options.baseURL);
  const apiKey = options.apiKey || undefined;
  const maxTokensField =
    options.maxTokensField ?? (host === "api.openai.com" ? "max_completion_tokens" : "max_tokens");
  // `Authorization: null` removes the header the client would build from the placeholder key.
  const defaultHeaders: Record<string, string | null> = {
    ...(apiKey ? {} : { Authorization: null }),
    ...NO_STAINLESS_HEADERS,
    ...options.headers,
  };
  // One client per backend: building it is most of what a call costs the CPU.
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: apiKey ?? PLACEHOLDER_KEY,
    // Explicit nulls keep OPENAI_ORG_ID / OPENAI_PROJECT_ID from a CLI's environment off the wire.
    organization: null,
    project: null,
    adminAPIKey: null,
    defaultHeaders,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 120_000,
    // Looked up at each call: a test may replace globalThis.fetch after the backend is made.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    // The app is a browser app and keys are the user's own.
    dangerouslyAllowBrowser: true,
  });

  async function* stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    const refused = request.extraBody && extraBodyProblem(request.extraBody);
    if (refused) throw new LlmError("bad_request", refused);
    const params: ChatCompletionCreateParamsStreaming = {
      model: options.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: request.temperature,
      stream: true,
      stream_options: { include_usage: true },
      ...(request.maxTokens > 0 ? { [maxTokensField]: request.maxTokens } : {}),
      ...request.extraBody,
    };

    const idle = idleWatch(signal, options.idleTimeoutMs ?? 0);
    let response: Response;
    try {
      // The raw response: providers put reasoning, usage and errors where the typed stream does
      // not look (see openai-wire.ts), and `event: error` frames must not pass unnoticed.
      response = await client.chat.completions.create(params, { signal: idle.signal }).asResponse();
    } catch (e: unknown) {
      idle.dispose();
      throw toLlmError(e, signal, apiKey, false);
    }
    const reader = new StreamReader(apiKey);
    idle.reset();
    try {
      const body = response.body;
      if (!body) throw new LlmError("server", "The response had no body.");
      if (/json/i.test(response.headers.get("content-type") ?? "")) {
        // A server that ignored `stream: true` answers with one whole completion.
        yield* reader.payload(JSON.parse(await response.text()) as unknown);
        reader.finished = true;
      } else {
        for await (const frame of readSse(body)) {
          idle.reset();
          if (frame.data.startsWith("[DONE]")) {
            reader.sawDone = true;
            break;
          }
          yield* reader.frame(frame);
        }
      }
    } catch (e: unknown) {
      if (idle.fired()) throw idleError(options.idleTimeoutMs ?? 0);
      throw toLlmError(e, signal, apiKey, true);
    } finally {
      idle.dispose();
    }
    yield* reader.end();
    // A stream cut by an abort must not pass for a finished one.
    if (signal.aborted) throw new LlmError("aborted");
    if (!reader.finished && !reader.sawDone && reader.usage === undefined) {
      throw new LlmError("dropped", "The stream ended without a finish reason or [DONE].");
    }
    yield {
      type: "usage",
      usage:
        reader.usage ??
        reader.timingsUsage ??
        estimateUsage(request.messages, reader.text + reader.reasoning),
    };
  }

  return {
    label: options.label ?? `${options.model} @ ${host}`,
    continuesAssistant: options.continuesAssistant ?? false,
    stream,
  };
}

function idleError(ms: number): LlmError {
  return new LlmError(
    "timeout",
    `No data arrived for ${(ms / 1000).toFixed(1)} s (idle time-out).`,
  );
}

/**
 * A signal that follows `parent` and also aborts after `ms` without a `reset()`; the timer only
 * runs once started by the first `reset()` (when the response has begun). `ms` 0 never fires.
 */
function idleWatch(parent: AbortSignal, ms: number) {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fired = false;
  // One timer per silence, not one per frame: a reset only notes the time, and the timer, when
  // it comes, waits out the rest of `ms` since the last one.
  let last = 0;
  const check = () => {
    const quiet = Date.now() - last;
    if (quiet < ms) {
      timer = setTimeout(check, ms - quiet);
      return;
    }
    fired = true;
    controller.abort(idleError(ms));
  };
  return {
    signal: controller.signal,
    fired: () => fired,
    reset() {
      if (ms <= 0) return;
      last = Date.now();
      timer ??= setTimeout(check, ms);
    },
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}
