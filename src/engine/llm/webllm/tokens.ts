/**
 * Prompt token counts for the in-browser model. WebLLM's worker engine exposes no tokenizer, but it
 * reports the exact prompt tokens of every generation; the counter learns the characters per token
 * of this model from those reports and, until the first one, assumes a conservative 3 characters a
 * token (Qwen's tokenizer averages about 4 on English prose and code).
 */
import type { ChatMessage } from "../../schema/usage.ts";

/** Tokens the chat template adds around each message (`<|im_start|>role\n ... <|im_end|>\n`). */
const PER_MESSAGE = 5;
const FIRST_GUESS_CHARS_PER_TOKEN = 3;

export interface TokenCounter {
  count(messages: ChatMessage[]): number;
  /** Records WebLLM's exact count for a prompt, to calibrate later counts. */
  observe(messages: ChatMessage[], promptTokens: number): void;
}

const charsOf = (messages: ChatMessage[]) => messages.reduce((n, m) => n + m.content.length, 0);

/** A counter that calibrates on WebLLM's reported prompt tokens (a safety margin of 5% on top). */
export function createTokenCounter(): TokenCounter {
  let charsPerToken = FIRST_GUESS_CHARS_PER_TOKEN;
  return {
    count(messages) {
      const text = Math.ceil((charsOf(messages) / charsPerToken) * 1.05);
      return text + PER_MESSAGE * messages.length + 3;
    },
    observe(messages, promptTokens) {
      const chars = charsOf(messages);
      const textTokens = promptTokens - PER_MESSAGE * messages.length - 3;
      // Short prompts say little about the ratio; keep it within what tokenizers do.
      if (chars < 200 || textTokens <= 0) return;
      charsPerToken = Math.min(6, Math.max(2, chars / textTokens));
    },
  };
}
