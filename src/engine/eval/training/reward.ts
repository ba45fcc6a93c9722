import { z } from "zod";

/**
 * The one reward rule of a Conductor sample, used by `eval --training-data` and by the `reward`
 * service. A plan that does not parse, or that names a worker outside the prompt's pool (the
 * parser refuses such a plan), earns 0 under every scheme. A parsed plan earns:
 * - `paper` (the default, the paper's reward): 0.5 when its answer is wrong, 1 when it is right;
 * - `format_bonus`: correctness (0 or 1) plus `bonus` (default 0.1), so 0 + B wrong and 1 + B
 *   right. This is the project's definition: the paper names a format-bonus variant but its code
 *   is not public, so it could not be checked against it.
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
  if (!parsed) return 0;
  if (s.scheme === "paper") return correct ? 1 : 0.5;
  return (correct ? 1 : 0) + s.bonus;
}

/** Reads `--reward paper|format_bonus[:B]` (eval), or `format_bonus:B` built from `--format-bonus B`. */
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

/** The `format_bonus` scheme with bonus B (the reward service's `--format-bonus B`). */
export function formatBonusReward(bonus: number): RewardScheme {
  return { scheme: "format_bonus", bonus };
}

/** The scheme in words, with its three values: `paper (0 / 0.5 / 1)`, `format_bonus 0.2 (0 / 0.2 / 1.2)`. */
export function describeReward(s: RewardScheme): string {
  const values = [rewardOf(false, false, s), rewardOf(true, false, s), rewardOf(true, true, s)];
  const name = s.scheme === "paper" ? "paper" : `format_bonus ${s.bonus}`;
  return `${name} (${values.join(" / ")})`;
}
