// `POST /v1/responses` for `serve`: the Open Responses shape (OpenAI, vLLM, Ollama, OpenRouter),
// read into the same request the chat endpoint makes and answered through the same run.
import { z } from "zod";
import type { ApiError } from "./error-replies.ts";
import { apiError } from "./error-replies.ts";
import type { ContextMessage, ParsedRequest } from "./request.ts";
import { askedIn, ignoredIn, invalidRequest } from "./request.ts";
import type { AnswerEnd, ChunkMeta, Wire } from "./sse-stream.ts";

const PartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const ItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(PartSchema)]).optional(),
});

const BodySchema = z.looseObject({
  model: z.string().optional(),
  input: z.union([z.string(), z.array(ItemSchema).min(1, "at least one input item is needed")]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(z.unknown()).nullish(),
  tool_choice: z.unknown().optional(),
  text: z.looseObject({ format: z.looseObject({ type: z.string() }).nullish() }).nullish(),
  previous_response_id: z.string().nullish(),
  conversation: z.unknown().optional(),
  background: z.boolean().nullish(),
  /** Extension: return the run's trace (plan, steps, per-step usage and cost). */
  conductor_trace: z.boolean().nullish(),
});
type Body = z.infer<typeof BodySchema>;

/** Fields of a responses request that `serve` accepts and ignores (the pool config decides). */
const IGNORED = ["max_output_tokens", "reasoning", "truncation", "include", "prompt_cache_key"];

const TEXT_PARTS = new Set(["input_text", "output_text", "text"]);

const unsupported = (param: string, why: string): ParsedRequest => ({
  ok: false,
  error: apiError("unsupported_parameter", `"${param}" is not supported: ${why}`, param),
});

function refused(body: Body): ParsedRequest | undefined {
  if (body.tools?.length) return unsupported("tools", "the workflow makes no tool calls.");
  const choice = body.tool_choice;
  if (choice !== undefined && choice !== null && choice !== "none" && choice !== "auto")
    return unsupported("tool_choice", "the workflow makes no tool calls.");
  const format = body.text?.format?.type;
  if (format !== undefined && format !== "text")
    return unsupported("text.format", "workers' answers are free text.");
  if (body.previous_response_id)
    return unsupported("previous_response_id", "this server keeps no state; send the input whole.");
  if (body.conversation !== undefined && body.conversation !== null)
    return unsupported("conversation", "this server keeps no state; send the input whole.");
  if (body.background) return unsupported("background", "answers are given in the request.");
  return undefined;
}

/** An input item's text; anything but text (an image, a tool call's output) is refused. */
function itemText(item: z.infer<typeof ItemSchema>, index: number): string | ApiError {
  if (item.type !== undefined && item.type !== "message")
    return apiError(
      "unsupported_content",
      `Only message input items are supported; input[${index}] is "${item.type}".`,
      `input[${index}]`,
    );
  const content = item.content ?? "";
  if (typeof content === "string") return content;
  const texts: string[] = [];
  for (const part of content) {
    if (!TEXT_PARTS.has(part.type) || part.text === undefined)
      return apiError(
        "unsupported_content",
        `Only text content is supported; input[${index}] has a "${part.type}" part.`,
        `input[${index}].content`,
      );
    texts.push(part.text);
  }
  return texts.join("\n");
}

/** Reads a responses body: `instructions` and earlier items are context, the last user text the question. */
export function parseResponsesRequest(raw: unknown): ParsedRequest {
  const parsed = BodySchema.safeParse(raw);
  if (!parsed.success) return invalidRequest(parsed.error);
  const body = parsed.data;
  const no = refused(body);
  if (no) return no;
  const messages: ContextMessage[] = body.instructions
    ? [{ role: "system", content: body.instructions }]
    : [];
  if (typeof body.input === "string") messages.push({ role: "user", content: body.input });
  else {
    for (const [i, item] of body.input.entries()) {
      const text = itemText(item, i);
      if (typeof text !== "string") return { ok: false, error: text };
      messages.push({ role: item.role ?? "user", content: text });
    }
  }
  const ignored = [
    ...ignoredIn(body),
    ...IGNORED.filter((f) => body[f] !== undefined && body[f] !== null),
  ];
  return askedIn(body, messages, {
    includeUsage: true,
    ignored,
    noQuestion: apiError(
      "missing_user_message",
      "The input has no user text: the last user message is the question.",
      "input",
    ),
  });
}

function usageOf(end: AnswerEnd) {
  const t = end.record.totals;
  return {
    input_tokens: t.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: t.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: t.promptTokens + t.completionTokens,
  };
}

const messageId = (meta: ChunkMeta) => `msg_${meta.id.slice("resp_".length)}`;

function outputText(text: string) {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

function message(meta: ChunkMeta, text: string | null) {
  return {
    type: "message",
    id: messageId(meta),
    status: text === null ? "in_progress" : "completed",
    role: "assistant",
    content: text === null ? [] : [outputText(text)],
  };
}

/** The response object, as `responses.create` returns it and the stream's events carry it. */
function responseOf(
  meta: ChunkMeta,
  status: "in_progress" | "completed" | "failed",
  extra: Record<string, unknown> = {},
) {
  return {
    id: meta.id,
    object: "response",
    created_at: meta.created,
    status,
    model: meta.model,
    output: [],
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: false,
    temperature: null,
    top_p: null,
    tool_choice: "none",
    tools: [],
    text: { format: { type: "text" } },
    usage: null,
    ...extra,
  };
}

function completed(meta: ChunkMeta, end: AnswerEnd) {
  return responseOf(meta, "completed", {
    output: [message(meta, end.record.answer ?? "")],
    usage: usageOf(end),
    ...end.trace,
  });
}

/** `POST /v1/responses`: a `response` object, or the Open Responses event stream. */
export const responsesWire: Wire = {
  prefix: "resp",
  whole: completed,
  stream(meta) {
    let sequence = 0;
    const event = (type: string, fields: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
    const at = { item_id: messageId(meta), output_index: 0, content_index: 0 };
    let text = "";
    return {
      open: () =>
        event("response.created", { response: responseOf(meta, "in_progress") }) +
        event("response.in_progress", { response: responseOf(meta, "in_progress") }) +
        event("response.output_item.added", { output_index: 0, item: message(meta, null) }) +
        event("response.content_part.added", { ...at, part: outputText("") }),
      delta(piece) {
        text += piece;
        return event("response.output_text.delta", { ...at, delta: piece, logprobs: [] });
      },
      done(end) {
        const answer = end.record.answer ?? text;
        return (
          event("response.output_text.done", { ...at, text: answer, logprobs: [] }) +
          event("response.content_part.done", { ...at, part: outputText(answer) }) +
          event("response.output_item.done", { output_index: 0, item: message(meta, answer) }) +
          event("response.completed", { response: completed(meta, end) })
        );
      },
      error: (e) =>
        event("response.failed", {
          response: responseOf(meta, "failed", { error: { code: e.code, message: e.message } }),
        }),
    };
  },
};
