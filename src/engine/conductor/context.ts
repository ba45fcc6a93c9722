/**
 * Fitting the Conductor's prompt into its context window (the in-browser 7B has 4,096 tokens by
 * WebLLM's record, 8,192 as the studio loads it). The only part that is safe to shorten is the answer
 * a refinement round carries: its middle is cut, with a visible marker. Anything else that does not
 * fit is refused with how much it is over.
 */
import type { Failure, Result } from "../errors.ts";
import { failure } from "../errors.ts";
import type { ChatMessage } from "../schema/usage.ts";

export type CountTokens = (messages: ChatMessage[]) => number | Promise<number>;

export interface FitOptions {
  /** The model's context window in tokens. */
  window: number;
  /** Tokens kept free for the plan (the call's max new tokens). */
  reserve: number;
  count: CountTokens;
}

const ANSWER_RE = /(\nANSWER:\n)([\s\S]*?)(\nEND OF ANSWER)/;

/** The marker left where the middle of a carried answer was cut. */
export function cutMarker(chars: number): string {
  return `[… ${chars.toLocaleString("en-US")} characters of the answer left out to fit the Conductor's context window …]`;
}

/** `text` without `chars` characters from its middle, the marker in their place. */
function cutMiddle(text: string, chars: number): string {
  const keep = Math.max(0, text.length - chars);
  const head = Math.ceil(keep / 2);
  const tail = keep - head;
  return `${text.slice(0, head)}\n${cutMarker(text.length - keep)}\n${text.slice(text.length - tail)}`;
}

/**
 * The messages as they fit: unchanged, with the last carried answer shortened (`shortened` tells by
 * how many characters), or a `prompt_too_long` failure saying how many tokens over it is.
 */
export async function fitPrompt(
  messages: ChatMessage[],
  o: FitOptions,
): Promise<Result<{ messages: ChatMessage[]; tokens: number; shortened: number }>> {
  const limit = o.window - o.reserve;
  let tokens = await o.count(messages);
  if (tokens <= limit) return { ok: true, messages, tokens, shortened: 0 };
  const at = messages.findLastIndex((m) => m.role === "user" && ANSWER_RE.test(m.content));
  let current = messages;
  let cut = 0;
  for (let attempt = 0; at >= 0 && attempt < 4 && tokens > limit; attempt++) {
    const original = messages[at]!.content.match(ANSWER_RE)?.[2] ?? "";
    const perToken = Math.max(1, (JSON.stringify(current).length / Math.max(1, tokens)) * 0.9);
    cut = Math.min(original.length, cut + Math.ceil((tokens - limit) * perToken) + 200);
    if (cut >= original.length) break;
    const content = messages[at]!.content.replace(
      ANSWER_RE,
      (_m, open: string, _answer: string, close: string) =>
        `${open}${cutMiddle(original, cut)}${close}`,
    );
    current = messages.map((m, i) => (i === at ? { ...m, content } : m));
    tokens = await o.count(current);
  }
  if (tokens <= limit && cut > 0) return { ok: true, messages: current, tokens, shortened: cut };
  const first = await o.count(messages);
  return {
    ok: false,
    ...overBy(first, o),
  };
}

function overBy(tokens: number, o: FitOptions): Failure {
  const over = tokens + o.reserve - o.window;
  return failure(
    "prompt_too_long",
    `it is about ${tokens.toLocaleString("en-US")} tokens and ${o.reserve.toLocaleString("en-US")} are kept for the plan, but the window holds ${o.window.toLocaleString("en-US")}: ${over.toLocaleString("en-US")} tokens over. Shorten the question, lower "max new tokens", or load the model with a larger context window.`,
  );
}
