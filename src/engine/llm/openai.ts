import OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { z } from "zod";
import type { Usage } from "../schema/usage.ts";
import { estimateUsage } from "./estimate.ts";
import { toLlmError } from "./openai-errors.ts";
import type { ChatBackend, ChatChunk, ChatRequest } from "./types.ts";
import { LlmError } from "./types.ts";

export { estimateTokens } from "./estimate.ts";

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
  fetch?: typeof fetch;
  /** Whether the endpoint continues a trailing assistant message (default false). */
  continuesAssistant?: boolean;
  /** Default true: the app is a browser app and keys are the user's own. */
  dangerouslyAllowBrowser?: boolean;
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

/** Usage as the wire carries it; `cost` is OpenRouter's figure in dollars. */
const WireUsageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative().optional(),
});

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/**
 * Wraps fetch so the caller learns when a `data: [DONE]` line went by: the openai stream swallows
 * it, and without it (or a finish_reason) a stream that simply stops cannot be told from a cut one.
 */
function watchForDone(fetchImpl: typeof fetch, onDone: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.ok || !response.body) return response;
    const decoder = new TextDecoder();
    let tail = "";
    const watcher = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const text = tail + decoder.decode(chunk, { stream: true });
        if (/data: ?\[DONE\]/.test(text)) onDone();
        tail = text.slice(-16);
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(watcher), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * A chat backend for any OpenAI-compatible endpoint, over the `openai` package. It streams with usage
 * requested, falls back to an estimate (marked `estimated`) when the server sends none, never lets
 * the client retry (the executor does), and maps every failure to a coded `LlmError`.
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

  async function* stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    let sawDone = false;
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
      fetch: watchForDone(options.fetch ?? globalThis.fetch.bind(globalThis), () => {
        sawDone = true;
      }),
      dangerouslyAllowBrowser: options.dangerouslyAllowBrowser ?? true,
    });
    const params: ChatCompletionCreateParamsStreaming = {
      model: options.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      temperature: request.temperature,
      stream: true,
      stream_options: { include_usage: true },
      ...(request.maxTokens > 0 ? { [maxTokensField]: request.maxTokens } : {}),
      ...request.extraBody,
    };

    let streaming = false;
    let text = "";
    let finished = false;
    let usage: Usage | undefined;
    try {
      const chunks = await client.chat.completions.create(params, { signal });
      streaming = true;
      for await (const chunk of chunks) {
        for (const choice of chunk.choices) {
          const delta = choice.delta?.content;
          if (delta) {
            text += delta;
            yield { type: "delta", text: delta };
          }
          if (choice.finish_reason) finished = true;
        }
        const wire = WireUsageSchema.safeParse(chunk.usage);
        if (wire.success) {
          usage = {
            promptTokens: wire.data.prompt_tokens,
            completionTokens: wire.data.completion_tokens,
            estimated: false,
            ...(wire.data.cost !== undefined ? { providerCost: wire.data.cost } : {}),
          };
        }
      }
    } catch (e: unknown) {
      throw toLlmError(e, signal, apiKey, streaming);
    }
    // The openai stream ends quietly when aborted; a cancelled call must not pass for a finished one.
    if (signal.aborted) throw new LlmError("aborted");
    if (!finished && !sawDone && usage === undefined) {
      throw new LlmError("dropped", "The stream ended without a finish reason or [DONE].");
    }
    yield { type: "usage", usage: usage ?? estimateUsage(request.messages, text) };
  }

  return {
    label: options.label ?? `${options.model} @ ${host}`,
    continuesAssistant: options.continuesAssistant ?? false,
    stream,
  };
}
