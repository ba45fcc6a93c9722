import { z } from "zod";

/** The parts of a chat-completions request body the test server looks at; the rest is kept. */
export const ChatBodySchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});
export type ChatBody = z.infer<typeof ChatBodySchema>;

/** Token usage a scripted reply reports; `cost` mimics OpenRouter's `usage.cost` (dollars). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cost?: number;
  /** Of the completion tokens, those spent reasoning (OpenAI's `reasoning_tokens`). */
  completion_tokens_details?: { reasoning_tokens: number };
}

/** A scripted reply in full. Every field is optional; an empty object is an empty answer. */
export interface ReplySpec {
  /** The answer text. */
  content?: string;
  /** Explicit streamed chunking; joined, they are the content (overrides `content`). */
  chunks?: string[];
  /** Delay between streamed chunks (reasoning chunks and replayed frames too). */
  chunkDelayMs?: number;
  /** Reasoning streamed before the answer, one delta per piece, in `reasoningField`. */
  reasoning?: string[];
  /** Which delta field carries `reasoning` (DeepSeek/vLLM vs OpenRouter/Groq); reasoning_content by default. */
  reasoningField?: "reasoning_content" | "reasoning";
  /** A raw SSE body to replay as is, frame by frame (to a streaming request). */
  sse?: string;
  /** Like `sse`, from a file in e2e/server/fixtures/ (e.g. "deepseek-reasoner.sse"). */
  fixture?: string;
  /** Delay before the first byte (headers included). */
  latencyMs?: number;
  /**
   * Hold the reply at the named gate (`server.gate(name)`) until the test releases it: before the
   * first byte, or after `gateAfter` streamed chunks have been sent.
   */
  gate?: string;
  /** Streamed chunks sent before the reply holds at its gate (default 0: before any header). */
  gateAfter?: number;
  /** An HTTP error status (401, 404, 429, 500...) answered with an OpenAI-style error body. */
  status?: number;
  /** The error message for `status`; a sensible default otherwise. */
  errorMessage?: string;
  /** The Retry-After header value sent with an error status. */
  retryAfter?: string;
  /** Destroy the socket before any header, or mid-stream after about half of the chunks. */
  drop?: "before" | "mid";
  /** Stream no chunk with a finish_reason (some servers never send one). */
  omitFinish?: boolean;
  /** End the stream cleanly without `data: [DONE]` (with omitFinish: a stream cut by a proxy). */
  omitDone?: boolean;
  /** `false`: send no usage at all; an object: send this usage; absent: a rough count. */
  usage?: false | ScriptedUsage;
  /** When set, this queued reply is only used for a request it accepts. */
  match?: (body: ChatBody) => boolean;
}

/** Text content, a full reply, or a function that computes one from the request. */
export type Reply = string | ReplySpec | ((body: ChatBody) => Reply);

/** A reply as it can be written in JSON (a scenario file): no functions. */
export const ReplyJsonSchema = z.union([
  z.string(),
  z.strictObject({
    content: z.string().optional(),
    chunks: z.array(z.string()).optional(),
    chunkDelayMs: z.number().nonnegative().optional(),
    reasoning: z.array(z.string()).optional(),
    reasoningField: z.enum(["reasoning_content", "reasoning"]).optional(),
    sse: z.string().optional(),
    fixture: z.string().optional(),
    latencyMs: z.number().nonnegative().optional(),
    gate: z.string().min(1).optional(),
    gateAfter: z.number().int().nonnegative().optional(),
    status: z.number().int().min(100).max(599).optional(),
    errorMessage: z.string().optional(),
    retryAfter: z.string().optional(),
    drop: z.enum(["before", "mid"]).optional(),
    omitFinish: z.boolean().optional(),
    omitDone: z.boolean().optional(),
    usage: z
      .union([
        z.literal(false),
        z.object({
          prompt_tokens: z.number().int().nonnegative(),
          completion_tokens: z.number().int().nonnegative(),
          cost: z.number().nonnegative().optional(),
          completion_tokens_details: z
            .object({ reasoning_tokens: z.number().int().nonnegative() })
            .optional(),
        }),
      ])
      .optional(),
  }),
]);

/** True when a queued reply may answer this request (only objects carry a `match`). */
export function accepts(reply: Reply, body: ChatBody): boolean {
  return typeof reply !== "object" || reply.match === undefined || reply.match(body);
}

/** Calls function replies until a plain reply comes out, and turns text into a spec. */
export function resolveReply(reply: Reply, body: ChatBody): ReplySpec {
  let current = reply;
  for (let depth = 0; typeof current === "function"; depth++) {
    if (depth > 8) throw new Error("A function reply kept returning functions.");
    current = current(body);
  }
  return typeof current === "string" ? { content: current } : current;
}

/** The streamed pieces of a reply: its explicit chunks, or its content split after each word. */
export function chunksOf(spec: ReplySpec): string[] {
  if (spec.chunks) return spec.chunks;
  return spec.content?.match(/\s*\S+\s*/g) ?? (spec.content ? [spec.content] : []);
}

/** The characters of a message's content, whether text or an array of text parts. */
function contentLength(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const part of content) {
    const parsed = z.object({ text: z.string() }).safeParse(part);
    if (parsed.success) n += parsed.data.text.length;
  }
  return n;
}

/** The usage to report, or undefined when the reply disables it. Rough count: chars / 4. */
export function usageOf(spec: ReplySpec, body: ChatBody, text: string): ScriptedUsage | undefined {
  if (spec.usage === false) return undefined;
  if (spec.usage) return spec.usage;
  const promptChars = body.messages.reduce((n, m) => n + contentLength(m.content), 0);
  return {
    prompt_tokens: Math.ceil(promptChars / 4),
    completion_tokens: Math.ceil(text.length / 4),
  };
}

/** The OpenAI-style `type` and `code` for an error status. */
export function errorKind(status: number): { type: string; code: string } {
  if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
  if (status === 403) return { type: "invalid_request_error", code: "permission_denied" };
  if (status === 404) return { type: "invalid_request_error", code: "model_not_found" };
  if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
  if (status >= 500) return { type: "server_error", code: "server_error" };
  return { type: "invalid_request_error", code: "invalid_request" };
}

/** A default message for an error status. */
export function errorMessageFor(status: number): string {
  if (status === 401) return "Incorrect API key provided.";
  if (status === 404) return "The model does not exist.";
  if (status === 429) return "Rate limit reached for requests.";
  if (status >= 500) return "The server had an error while processing your request.";
  return `Request failed with status ${status}.`;
}
