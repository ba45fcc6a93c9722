import { z } from "zod";

/** Token usage of one model call; `estimated` when the server sent no usage and we counted ourselves. */
export const UsageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  estimated: z.boolean().default(false),
  /** The provider's own cost figure in dollars, where it gives one (e.g. OpenRouter). */
  providerCost: z.number().nonnegative().optional(),
  /** Of the completion tokens, those spent reasoning, where the provider reports them. */
  reasoningTokens: z.number().int().nonnegative().optional(),
  /** Answered from the response cache (llm/cache.ts): the tokens are the stored call's; it cost nothing. */
  cached: z.boolean().optional(),
  /** With `cached`: what the call would have cost at the worker's price (the money the hit saved). */
  savedCost: z.number().nonnegative().optional(),
  /**
   * No price was known for the call (none set, none reported by the provider): its cost is
   * unknown, not $0. Totals count such calls (`unpricedCalls`) and show a lower bound or "unknown".
   */
  unpriced: z.literal(true).optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const ChatMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
