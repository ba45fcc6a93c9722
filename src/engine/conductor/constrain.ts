/**
 * How a plan grammar travels to each kind of Conductor backend (docs/protocol.md §2, "Constrained
 * plans"), and the prompt change that goes with it: under a grammar that starts with the opening,
 * the model writes the opening itself, so the folded-in instruction to begin with it is dropped.
 */
import { ErrorCode } from "../errors.ts";
import type { ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { ChatMessage } from "../schema/usage.ts";
import { foldedOpening } from "./prompt.ts";

/**
 * - `off`: no grammar;
 * - `webllm`: the in-browser model's own `response_format: { type: "grammar" }`;
 * - `vllm`: `structured_outputs: { grammar }` (vLLM 0.10.2 and later);
 * - `vllm-guided`: `guided_grammar` (older vLLM);
 * - `sglang`: `ebnf` (SGLang).
 */
export const PLAN_GRAMMAR_MODES = ["off", "webllm", "vllm", "vllm-guided", "sglang"] as const;
export type PlanGrammarMode = (typeof PLAN_GRAMMAR_MODES)[number];

/** The remote modes with their labels and the body field each one sends. */
export const REMOTE_GRAMMAR_MODES: readonly {
  mode: PlanGrammarMode;
  label: string;
  field?: string;
}[] = [
  { mode: "off", label: "Off (unconstrained)" },
  { mode: "vllm", label: "vLLM (structured_outputs)", field: "structured_outputs" },
  { mode: "vllm-guided", label: "Older vLLM (guided_grammar)", field: "guided_grammar" },
  { mode: "sglang", label: "SGLang (ebnf)", field: "ebnf" },
];

/** The request fields that carry `grammar` in `mode`. */
export function grammarFields(
  mode: PlanGrammarMode,
  grammar: string,
): Pick<ChatRequest, "grammar" | "extraBody"> {
  switch (mode) {
    case "off":
      return {};
    case "webllm":
      return { grammar };
    case "vllm":
      return { extraBody: { structured_outputs: { grammar } } };
    case "vllm-guided":
      return { extraBody: { guided_grammar: grammar } };
    case "sglang":
      return { extraBody: { ebnf: grammar } };
  }
}

/** The body field a remote mode sends, for messages. */
export function grammarField(mode: PlanGrammarMode): string | undefined {
  return REMOTE_GRAMMAR_MODES.find((m) => m.mode === mode)?.field;
}

/**
 * A remote server's refusal of the grammar field (a 400 or 422 whose message names the field or
 * grammars), as a `grammar_refused` error that says what to change; other errors pass unchanged.
 */
export function refusedGrammar(e: LlmError, mode: PlanGrammarMode): LlmError {
  const field = grammarField(mode);
  if (!field || (e.status !== 400 && e.status !== 422 && e.code !== ErrorCode.bad_request))
    return e;
  const words = new RegExp(`${field}|grammar|ebnf|structured|guided`, "i");
  if (!words.test(e.message)) return e;
  return new LlmError(
    "grammar_refused",
    `it does not accept the "${field}" field (${e.message}). In Settings → Conductor choose the "constrain the plan" option this server supports, or turn it off.`,
    e.status,
  );
}

/** The opening a message list asks for: a trailing assistant message, or the folded instruction. */
export function openingOf(messages: ChatMessage[]): {
  opening: string;
  folded: boolean;
} {
  const last = messages.at(-1);
  if (!last) return { opening: "", folded: false };
  if (last.role === "assistant") return { opening: last.content, folded: false };
  // The last instruction is the folded one: the question before it may end like one too.
  const head = `\n\n${foldedOpening("")}`.slice(0, -1);
  const at = last.content.lastIndexOf(head);
  if (last.role !== "user" || at < 0) return { opening: "", folded: false };
  const opening = last.content.slice(at + head.length, -1);
  // Only the exact instruction `foldedOpening` writes counts.
  if (!last.content.endsWith(`\n\n${foldedOpening(opening)}`))
    return { opening: "", folded: false };
  return { opening, folded: true };
}

/**
 * The messages and the grammar's fixed prefix for a constrained call. A folded opening becomes the
 * grammar's prefix (the model writes it, as if it continued a prefilled message) and the instruction
 * is dropped (`folded` says so); a trailing assistant message is continued, so its text is not
 * repeated.
 */
export function constrainedPrompt(messages: ChatMessage[]): {
  messages: ChatMessage[];
  prefix: string;
  folded: boolean;
} {
  const { opening, folded } = openingOf(messages);
  if (!folded) return { messages, prefix: "", folded };
  const last = messages.at(-1)!;
  const content = last.content.slice(0, -`\n\n${foldedOpening(opening)}`.length);
  return { messages: [...messages.slice(0, -1), { ...last, content }], prefix: opening, folded };
}

/**
 * The inverse of `constrainedPrompt`: the messages it returned with the instruction to begin with
 * `opening` folded back into the last one, which is the conversation a later round continues, as
 * an unconstrained run holds it. Unchanged when no instruction was dropped (`opening` undefined)
 * or the last message is not the user's (nothing was folded into it).
 */
export function unconstrainedPrompt(
  messages: ChatMessage[],
  opening: string | undefined,
): ChatMessage[] {
  const last = messages.at(-1);
  if (opening === undefined || last?.role !== "user") return messages;
  const content = `${last.content}\n\n${foldedOpening(opening)}`;
  return [...messages.slice(0, -1), { ...last, content }];
}
