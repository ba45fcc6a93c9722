import type { ChatMessage, Usage } from "../schema/usage.ts";

/** A rough token count (about four characters a token for English and code), for estimates only. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Per-message overhead the rough estimate adds (role and separators). */
export const MESSAGE_OVERHEAD = 4;

/** Prompt tokens of a message list, counted roughly. */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + estimateTokens(m.content) + MESSAGE_OVERHEAD, 0);
}

/** Usage estimated from the request and the produced text, marked `estimated`. */
export function estimateUsage(messages: ChatMessage[], output: string): Usage {
  const prompt = estimatePromptTokens(messages);
  return { promptTokens: prompt, completionTokens: estimateTokens(output), estimated: true };
}
