import { z } from "zod";

/**
 * How a Conductor sample's reward is computed:
 * - `paper` (the default, the paper's reward): 0 for a plan that does not parse, 0.5 for a parsed
 *   plan whose answer is wrong, 1 for a parsed plan whose answer is right;
 * - `format_bonus` (the paper code's variant): correctness (0 or 1) plus a bonus when the plan
 *   parses, `bonus` (default 0.1) added to both right and wrong parsed plans.
 */
export const RewardSchemeSchema = z.discriminatedUnion("scheme", [
  z.object({ scheme: z.literal("paper") }),
  z.object({ scheme: z.literal("format_bonus"), bonus: z.number().min(0).max(1).default(0.1) }),
]);
export type RewardScheme = z.infer<typeof RewardSchemeSchema>;

export const PAPER_REWARD: RewardScheme = { scheme: "paper" };

/** The reward of one scored sample: whether its plan parsed and whether its answer was right. */
export function rewardOf(
  parsed: boolean,
  correct: boolean,
  s: RewardScheme = PAPER_REWARD,
): number {
  if (s.scheme === "paper") return parsed ? (correct ? 1 : 0.5) : 0;
  return (correct && parsed ? 1 : 0) + (parsed ? s.bonus : 0);
}

/** Reads `--reward paper|format_bonus[:B]`. */
export function parseRewardOption(text: string): RewardScheme | string {
  if (text === "paper") return PAPER_REWARD;
  const m = /^format_bonus(?::([0-9.]+))?$/.exec(text);
  if (!m) return `--reward must be "paper" or "format_bonus[:B]", got "${text}".`;
  const parsed = RewardSchemeSchema.safeParse({
    scheme: "format_bonus",
    ...(m[1] !== undefined ? { bonus: Number(m[1]) } : {}),
  });
  return parsed.success ? parsed.data : `--reward format_bonus:B needs 0 <= B <= 1, got "${m[1]}".`;
}
