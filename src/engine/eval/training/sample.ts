import { modelIdOf, shownIds } from "../../conductor/shown-ids.ts";
import { z } from "zod";
import { fnv1a64 } from "../dataset/hash.ts";
import { ChatMessageSchema, UsageSchema } from "../../schema/usage.ts";
import type { RunRecord } from "../../schema/record.ts";
import type { Pool } from "../../schema/worker.ts";
import { ListsSchema } from "../../schema/record.ts";
import type { EvalResult } from "../schema.ts";
import type { RewardScheme } from "./reward.ts";
import { PAPER_REWARD, RewardSchemeSchema, rewardOf } from "./reward.ts";

/** A worker as the training data records it: what the Conductor's model ids index into, never a key. */
const PoolEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  model: z.string(),
  note: z.string().optional(),
});

/**
 * One Conductor sample (one plan of one question), the row a Conductor trainer reads. Field names
 * follow the issue: group id, prompt messages exactly as sent (the opening included), completion,
 * parsed lists or parse error, pool snapshot and hash, each step, extracted answer, reward and parts.
 */
const SampleFieldsSchema = z.object({
  format: z.literal("conductor-studio-sample"),
  version: z.literal(2),
  group_id: z.string(),
  item_id: z.string(),
  repeat: z.number().int().nonnegative(),
  run_id: z.string(),
  question: z.string(),
  ground_truth: z.string().nullable(),
  prompt: z.array(ChatMessageSchema),
  completion: z.string(),
  lists: ListsSchema.nullable(),
  parse_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  pool: z.array(PoolEntrySchema),
  pool_hash: z.string(),
  steps: z.array(
    z.object({
      model_id: z.number().int(),
      subtask: z.string(),
      messages: z.array(ChatMessageSchema),
      output: z.string(),
      usage: UsageSchema.nullable(),
      cost: z.number().nullable(),
    }),
  ),
  extracted_answer: z.string().nullable(),
  reward: z.object({
    /** The reward under `scheme`: by default the paper's 0 / 0.5 / 1 (see reward.ts). */
    total: z.number(),
    correct: z.union([z.literal(0), z.literal(1)]),
    /** 1 when the plan parsed into a valid workflow, 0 when it did not (the paper's format term). */
    format: z.union([z.literal(0), z.literal(1)]),
    scheme: RewardSchemeSchema,
  }),
  /** Always true: unscored and errored samples are left out of the training data. */
  scored: z.boolean(),
});

/**
 * Version 1 samples (reward total = correct, or -1 for an unparseable plan; unscored samples
 * included) become version 2: the paper's reward recomputed from their parts. An unscored v1
 * sample cannot be migrated into training data and is refused.
 */
function upgradeSample(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null) return raw;
  const r = raw as Record<string, unknown>;
  if (r.version !== 1 || typeof r.reward !== "object" || r.reward === null) return raw;
  if (r.scored !== true) return { ...r, version: "unscored v1 sample" };
  const { correct, format } = r.reward as { correct?: unknown; format?: unknown };
  return {
    ...r,
    version: 2,
    reward: {
      correct,
      format,
      total: rewardOf(format === 1, correct === 1),
      scheme: PAPER_REWARD,
    },
  };
}

/** One sample as read from a file: version 1 lines are migrated on the way in. */
export const ConductorSampleSchema = z.preprocess(upgradeSample, SampleFieldsSchema);
export type ConductorSample = z.infer<typeof SampleFieldsSchema>;

export function poolSnapshot(pool: Pool): z.infer<typeof PoolEntrySchema>[] {
  return pool.map((w, id) => ({
    id,
    name: w.name,
    model: w.model,
    ...(w.note ? { note: w.note } : {}),
  }));
}

export function poolHash(pool: Pool): string {
  return `fnv1a64:${fnv1a64(JSON.stringify(poolSnapshot(pool)))}`;
}

/**
 * The training sample of a Conductor run (its first round's plan), or null for a run of another
 * strategy, one with no plan at all, one whose calls failed (an error) or one without a verdict.
 */
export function conductorSample(
  result: EvalResult,
  record: RunRecord,
  scheme: RewardScheme = PAPER_REWARD,
): ConductorSample | null {
  if (result.strategy !== "conductor") return null;
  if (result.error || result.correct === null) return null;
  const round = record.rounds[0];
  const plan = round?.plan;
  if (!round || !plan) return null;
  const parsed = plan.error === null && round.lists !== null;
  const correct = result.correct && parsed ? 1 : 0;
  return {
    format: "conductor-studio-sample",
    version: 2,
    group_id: result.item,
    item_id: result.item,
    repeat: result.repeat,
    run_id: record.id,
    question: record.question,
    ground_truth: result.expected,
    prompt: plan.messages,
    completion: plan.raw,
    lists: round.lists,
    parse_error: plan.error,
    pool: poolSnapshot(record.pool),
    pool_hash: poolHash(record.pool),
    steps: round.steps.map((s) => ({
      model_id: modelIdOf(round.lists?.workerIds ?? shownIds(record.pool), s.worker),
      subtask: s.subtask,
      messages: s.messages,
      output: s.output,
      usage: s.usage,
      cost: s.cost,
    })),
    extracted_answer: result.extracted,
    reward: {
      total: rewardOf(parsed, result.correct, scheme),
      correct,
      format: parsed ? 1 : 0,
      scheme,
    },
    scored: true,
  };
}
