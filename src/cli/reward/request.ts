// The wire shapes of `conductor-studio reward`: POST /v1/rewards in and out, checked with zod.
import { z } from "zod";

/** The most items one request may carry (GRPO steps are 4 x 64 = 256 in the paper). */
export const MAX_ITEMS = 4096;

export const RewardItemSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  /** The question as the Conductor's prompt showed it (posed: options lettered, format line). */
  question: z.string().min(1),
  /** The Conductor's sampled text after the prompt, with or without the assistant opening. */
  completion: z.string(),
  /** The reference answer; for multiple choice the letter, or the text of one of `choices`. */
  reference: z.string().nullable().optional(),
  /** A scorer id of the registry (mc, math, exact, contains, regex, code...); default --scorer. */
  scorer: z.string().min(1).optional(),
  /** Multiple-choice options in the order the question letters them. */
  choices: z.array(z.string()).optional(),
  /** Test cases for the code scorer, as in a question set's tests column. */
  tests: z.unknown().optional(),
  /** The worker names in the order the prompt listed them (`prompts` records it); default: all. */
  pool: z.array(z.string().min(1)).min(1).optional(),
});
export type RewardItem = z.infer<typeof RewardItemSchema>;

export const RewardRequestSchema = z.object({
  items: z.array(RewardItemSchema).min(1).max(MAX_ITEMS),
  /** This request's rewards use the format_bonus scheme with this B (as --format-bonus B). */
  format_bonus: z.number().min(0).max(1).optional(),
});
export type RewardRequest = z.infer<typeof RewardRequestSchema>;

/** Why an item has no reward (reward null): never a silent 0. */
export const RewardErrorCodeSchema = z.enum([
  /** A worker call failed after the engine's retries (auth, 5xx, network, time-out...). */
  "worker_failed",
  /** The item's pool names a worker the service's config lacks. */
  "unknown_worker",
  /** The scorer could not decide (no reference, an unknown scorer, a judge that failed). */
  "unscored",
  /** The run reached the config's `maxCalls` before it finished. */
  "budget",
  /** The run was cancelled (the service is shutting down, the client went away). */
  "cancelled",
]);
export type RewardErrorCode = z.infer<typeof RewardErrorCodeSchema>;

export interface RewardResult {
  id: string;
  /** `rewardOf` (training/reward.ts): 0 unparseable or outside the pool, 0.5 / 1 or B / 1 + B; null on error. */
  reward: number | null;
  correct: boolean | null;
  format_ok: boolean;
  /** The workflow's answer, when it ran. */
  answer: string | null;
  error: { code: RewardErrorCode; message: string } | null;
  /** Why the plan did not parse (code and message of the parser), when it did not. */
  parse_error: { code: string; message: string } | null;
  run_id: string | null;
  cost: number;
  calls: number;
  /** Of `calls`, those answered from the response cache. */
  cached_calls: number;
  /** What the scorer extracted from the answer. */
  extracted: string | null;
}
