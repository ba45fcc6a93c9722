import type { ChatMessage, Usage } from "../schema/usage.ts";

/** A rough token count (about four characters a token for English and code), for estimates only. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Usage estimated from the request and the produced text, marked `estimated`. */
export function estimateUsage(messages: ChatMessage[], output: string): Usage {
  const prompt = messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
  return { promptTokens: prompt, completionTokens: estimateTokens(output), estimated: true };
}
