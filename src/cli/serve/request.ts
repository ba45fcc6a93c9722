// What a `POST /v1/chat/completions` body asks `serve` for: validated at the boundary with zod.
import { z } from "zod";
import { describeIssues } from "../../engine/schema/guards.ts";
import type { ApiError } from "./error-replies.ts";
import { apiError } from "./error-replies.ts";
import { CHAT_FIELDS, checkFields } from "./fields.ts";

const TextPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
const ContentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()]);

const BodySchema = z.looseObject({
  model: z.string().optional(),
  messages: z
    .array(z.looseObject({ role: z.string(), content: ContentSchema.optional() }))
    .min(1, "at least one message is needed"),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  n: z.number().int().nullish(),
  tools: z.array(z.unknown()).nullish(),
  functions: z.array(z.unknown()).nullish(),
  tool_choice: z.unknown().optional(),
  response_format: z.looseObject({ type: z.string() }).nullish(),
  logprobs: z.boolean().nullish(),
  /** Extension: return the run's trace (plan, steps, per-step usage and cost). */
  conductor_trace: z.boolean().nullish(),
});

/** An earlier message of the conversation, shown to the Conductor as context. */
export interface ContextMessage {
  role: string;
  content: string;
}

export interface ServeRequest {
  /** The model the client asked for, when it named one. */
  model: string | undefined;
  question: string;
  context: ContextMessage[];
  stream: boolean;
  includeUsage: boolean;
  trace: boolean;
  /** Fields the request set that fields.ts ignores (sent back as `x-conductor-ignored`). */
  ignored: string[];
}

export type ParsedRequest = { ok: true; request: ServeRequest } | { ok: false; error: ApiError };

/** A message's text: a string, or its text parts joined; an image or audio part is refused. */
function textOf(
  content: z.infer<typeof ContentSchema> | undefined,
  index: number,
): string | ApiError {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const part of content) {
    const text = TextPartSchema.safeParse(part);
    if (!text.success) {
      return apiError(
        "unsupported_content",
        `Only text content is supported; message ${index} has a "${part.type}" part.`,
        `messages[${index}].content`,
      );
    }
    parts.push(text.data.text);
  }
  return parts.join("\n");
}

/** Reads a chat-completions body: the last user message is the question, earlier ones context. */
export function parseChatRequest(raw: unknown): ParsedRequest {
  const parsed = BodySchema.safeParse(raw);
  if (!parsed.success) return invalidRequest(parsed.error);
  const body = parsed.data;
  const fields = checkFields(body);
  if (!fields.ok) return { ok: false, error: unsupported(fields.param, fields.why) };
  const texts: ContextMessage[] = [];
  for (const [i, m] of body.messages.entries()) {
    const text = textOf(m.content, i);
    if (typeof text !== "string") return { ok: false, error: text };
    texts.push({ role: m.role, content: text });
  }
  return askedIn(body, texts, {
    includeUsage: body.stream_options?.include_usage === true,
    ignored: fields.ignored,
    noQuestion: apiError(
      "missing_user_message",
      "The request has no user message with text: the last user message is the question.",
      "messages",
    ),
  });
}

/** A body that does not fit its schema: the first issue's path is the param. */
export function invalidRequest(error: z.ZodError): ParsedRequest {
  const param = error.issues[0]?.path.join(".") || null;
  const message = `Invalid request: ${describeIssues(error)}`;
  return { ok: false, error: apiError("invalid_request", message, param) };
}

/**
 * What both endpoints ask of their messages: the last user message with text is the question, the
 * non-empty ones before it its context; `noQuestion` answers a request where no user message has text.
 */
export function askedIn(
  body: { model?: string; stream?: boolean | null; conductor_trace?: boolean | null },
  messages: ContextMessage[],
  options: { includeUsage: boolean; ignored: string[]; noQuestion: ApiError },
): ParsedRequest {
  const last = messages.findLastIndex((m) => m.role === "user" && m.content.trim() !== "");
  if (last < 0) return { ok: false, error: options.noQuestion };
  return {
    ok: true,
    request: {
      model: body.model,
      question: messages[last]!.content,
      context: messages.slice(0, last).filter((m) => m.content.trim() !== ""),
      stream: body.stream === true,
      includeUsage: options.includeUsage,
      trace: body.conductor_trace === true,
      ignored: options.ignored,
    },
  };
}

/** The chat fields a body sets that fields.ts ignores (null counts as unset). */
export function ignoredIn(body: Record<string, unknown>): string[] {
  return Object.keys(CHAT_FIELDS).filter(
    (f) => CHAT_FIELDS[f]?.rule === "ignored" && body[f] !== undefined && body[f] !== null,
  );
}

const unsupported = (param: string, why: string) =>
  apiError("unsupported_parameter", `"${param}" is not supported: ${why}`, param);
