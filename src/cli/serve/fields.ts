// Every field of an OpenAI chat-completions request, and what `serve` does with it: one table, so
// nothing a client sets is dropped without a word. Honoured fields change the answer; ignored ones
// are named back in `x-conductor-ignored` (the pool config sets sampling per worker, and a field
// this table does not know is ignored the same way); refused ones answer 400 when a value asks
// for something the workflow cannot give (a harness would otherwise score an answer it did not
// ask for).
import { z } from "zod";

export const FieldRuleSchema = z.enum(["honoured", "ignored", "refused"]);
export type FieldRule = z.infer<typeof FieldRuleSchema>;

interface Field {
  rule: FieldRule;
  /** For a refused field: whether this value asks for what cannot be given (null never does). */
  refuses?: (value: unknown) => boolean;
  /** Why it is refused, for the 400's message. */
  why?: string;
}

const set = (v: unknown) => v !== undefined && v !== null;
const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
const beyond = (allowed: unknown[]) => (v: unknown) => set(v) && !allowed.includes(v);
const NO_TOOLS = "the workflow answers in text and makes no tool calls.";

/** The chat request's fields (OpenAI's, vLLM's common sampling extras, and this server's own). */
export const CHAT_FIELDS: Record<string, Field> = {
  model: { rule: "honoured" },
  messages: { rule: "honoured" },
  stream: { rule: "honoured" },
  stream_options: { rule: "honoured" },
  conductor_trace: { rule: "honoured" },
  n: {
    rule: "refused",
    refuses: beyond([1]),
    why: "one run per request gives one choice; send n = 1.",
  },
  tools: { rule: "refused", refuses: nonEmpty, why: NO_TOOLS },
  functions: { rule: "refused", refuses: nonEmpty, why: NO_TOOLS },
  tool_choice: {
    rule: "refused",
    refuses: beyond(["none", "auto"]),
    why: "the workflow makes no tool calls.",
  },
  function_call: {
    rule: "refused",
    refuses: beyond(["none", "auto"]),
    why: "the workflow makes no tool calls.",
  },
  response_format: {
    rule: "refused",
    refuses: (v) => set(v) && (v as { type?: unknown }).type !== "text",
    why: "workers' answers are free text; put format instructions in a system message instead.",
  },
  logprobs: {
    rule: "refused",
    refuses: (v) => v === true,
    why: "a workflow's answer has no single model's log probabilities.",
  },
  modalities: {
    rule: "refused",
    refuses: (v) => Array.isArray(v) && v.some((m) => m !== "text"),
    why: 'the workflow answers in text only; send ["text"] or leave it out.',
  },
  audio: { rule: "refused", refuses: set, why: "the workflow answers in text, not audio." },
  web_search_options: {
    rule: "refused",
    refuses: set,
    why: "the workflow does not search the web; give a worker a search model in the pool instead.",
  },
  // Sampling and bookkeeping that the pool config decides per worker, or that changes nothing here.
  temperature: { rule: "ignored" },
  top_p: { rule: "ignored" },
  top_k: { rule: "ignored" },
  min_p: { rule: "ignored" },
  repetition_penalty: { rule: "ignored" },
  max_tokens: { rule: "ignored" },
  max_completion_tokens: { rule: "ignored" },
  stop: { rule: "ignored" },
  seed: { rule: "ignored" },
  presence_penalty: { rule: "ignored" },
  frequency_penalty: { rule: "ignored" },
  logit_bias: { rule: "ignored" },
  top_logprobs: { rule: "ignored" },
  reasoning_effort: { rule: "ignored" },
  verbosity: { rule: "ignored" },
  prediction: { rule: "ignored" },
  parallel_tool_calls: { rule: "ignored" },
  user: { rule: "ignored" },
  safety_identifier: { rule: "ignored" },
  prompt_cache_key: { rule: "ignored" },
  prompt_cache_retention: { rule: "ignored" },
  metadata: { rule: "ignored" },
  store: { rule: "ignored" },
  service_tier: { rule: "ignored" },
};

/** A field name that may go back in a header: anything else is refused rather than echoed. */
const TOKEN = /^[A-Za-z0-9_.-]{1,64}$/;

export type FieldVerdict =
  { ok: true; ignored: string[] } | { ok: false; param: string; why: string };

/**
 * What the table says of `body`: the first refused value, or the fields set (null counts as
 * unset) that are ignored, unknown ones included, in the body's order.
 */
export function checkFields(body: Record<string, unknown>): FieldVerdict {
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const field = Object.hasOwn(CHAT_FIELDS, name) ? CHAT_FIELDS[name] : undefined;
    if (field?.rule === "refused" && field.refuses?.(value))
      return { ok: false, param: name, why: field.why ?? "" };
    if (field !== undefined && field.rule !== "ignored") continue;
    if (!set(value)) continue;
    if (!TOKEN.test(name))
      return { ok: false, param: "(field name)", why: "a field name must be a plain word." };
    ignored.push(name);
  }
  return { ok: true, ignored };
}
