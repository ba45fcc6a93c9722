import { workerIdAt } from "../conductor/shown-ids.ts";
import { poolIds } from "../run/export.ts";
import { isObject } from "../schema/guards.ts";
import { z } from "zod";
import { ConductorConfigSchema, PoolSchema } from "../schema/worker.ts";
import { HfSourceSchema } from "./dataset/hf-pin.ts";
import { ColumnMappingSchema } from "./dataset/item-schema.ts";
import { CodeResultSchema } from "./scorers/code-result.ts";
import { MathProfileSchema } from "./scorers/math-profiles.ts";
import { ScorerSpecSchema } from "./scorers/registry.ts";
import { EvalErrorSchema, upgradeResultObject } from "./outcome.ts";
import { StrategySchema } from "./strategy.ts";

/** One (item, strategy, repeat) result: a line of the CLI's `--out` file. */
export const EvalResultSchema = z.object({
  item: z.string(),
  strategy: z.string(),
  repeat: z.number().int().nonnegative(),
  /** true, false, or null when unscored (a failed judge, an item without a reference). */
  correct: z.boolean().nullable(),
  score: z.number(),
  answer: z.string().nullable(),
  expected: z.string().nullable(),
  tokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
  runId: z.string(),
  // Beyond the fields: what the report needs.
  calls: z.number().int().nonnegative().default(0),
  /** Of the calls, those with no known price: `cost` is then a lower bound. Absent when none. */
  unpricedCalls: z.number().int().nonnegative().optional(),
  extracted: z.string().nullable().default(null),
  status: z.string().default("done"),
  endReason: z.string().nullable().default(null),
  planFailed: z.boolean().default(false),
  /** The Conductor could not plan and a named worker answered alone (absent otherwise). */
  fallback: z.boolean().optional(),
  reason: z.string().optional(),
  /** The multiple-choice strict verdict, kept beside the lenient one. */
  strict: z.boolean().nullable().optional(),
  /** The code scorer: tests passed / total, the first failing test, the time. */
  code: CodeResultSchema.optional(),
  finishedAt: z.number().optional(),
  /** Of `calls`, those answered from the response cache (at no cost); absent when none were. */
  cachedCalls: z.number().int().nonnegative().optional(),
  /** What those cached calls would have cost (the money the response cache saved). */
  savedCost: z.number().nonnegative().optional(),
  /**
   * Why the item has no verdict because a call failed (after its retries): an error is never a
   * wrong answer; it is left out of accuracy and training data and run again on resume.
   */
  error: EvalErrorSchema.nullable().default(null),
  /** The item's category (a `category`/`subject` column), for the per-category report. */
  category: z.string().optional(),
  /** The LLM judge's calls on this item (included in tokens, cost and calls), every scoring. */
  judge: z
    .object({
      calls: z.number().int().nonnegative(),
      tokens: z.number().int().nonnegative(),
      cost: z.number().nonnegative(),
    })
    .optional(),
  /**
   * The scorer, version and grader profile (math from version 3) that gave this verdict (absent
   * on lines older than re-scoring). A stored verdict keeps it until the results are re-scored.
   */
  scoredBy: z
    .object({ id: z.string(), version: z.number().int(), profile: MathProfileSchema.optional() })
    .optional(),
});
export type EvalResult = z.infer<typeof EvalResultSchema>;

/** Reads a stored result line tolerantly: an old line whose run failed on a call becomes an error. */
export function parseResult(raw: unknown): ReturnType<typeof EvalResultSchema.safeParse> {
  return EvalResultSchema.safeParse(upgradeResultObject(raw));
}

/** The key of one (item, strategy, repeat): finished keys are never run again. */
export function resultKey(r: Pick<EvalResult, "item" | "strategy" | "repeat">): string {
  return JSON.stringify([r.item, r.strategy, r.repeat]);
}

/**
 * The results as they stand: a key written twice (an errored item run again, a re-scored line)
 * counts once, by its last line; order is each key's last appearance.
 */
export function latestResults<T extends Pick<EvalResult, "item" | "strategy" | "repeat">>(
  results: readonly T[],
): T[] {
  const last = new Map<string, T>();
  for (const r of results) {
    const key = resultKey(r);
    last.delete(key);
    last.set(key, r);
  }
  return [...last.values()];
}

/** An evaluation as stored and exported: everything needed to reproduce it, never a key. */
export const EvaluationSchema = z.object({
  format: z.literal("conductor-studio-eval"),
  version: z.literal(1),
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  dataset: z.object({
    name: z.string(),
    hash: z.string(),
    size: z.number().int().nonnegative(),
    mapping: ColumnMappingSchema.optional(),
    /** A Hugging Face source: the rows read and the commit they were read at (re-reads pin it). */
    source: HfSourceSchema.optional(),
  }),
  /** The answer-format instruction every strategy's last step gets (default: the scorer's). */
  instruction: z.string().min(1).optional(),
  /** The benchmark preset the questions came from (presets.ts), naming the Table 1 column. */
  benchmark: z.object({ id: z.string().min(1), name: z.string().min(1) }).optional(),
  strategies: z.array(StrategySchema).min(1),
  repeats: z.number().int().positive(),
  /** The seed that shuffles multiple-choice options (per item, derived from it). */
  seed: z.number().int(),
  scorer: ScorerSpecSchema.extend({ version: z.number().int() }),
  pool: PoolSchema,
  conductor: ConductorConfigSchema.nullable(),
  concurrency: z.number().int().positive(),
  maxCost: z.number().positive().nullable(),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

/**
 * An evaluation as stored before steps referred to workers by id: a "workflow" strategy's step
 * held its worker's place in the evaluation's pool; it becomes that worker's id. Anything else
 * passes unchanged, for the schema to judge.
 */
export function upgradeEvaluation(raw: unknown): unknown {
  if (!isObject(raw) || !Array.isArray(raw.strategies) || !Array.isArray(raw.pool)) return raw;
  const ids = poolIds(raw.pool);
  const strategies = raw.strategies.map((st: unknown) => {
    if (!isObject(st) || st.kind !== "workflow" || !Array.isArray(st.steps)) return st;
    const steps = st.steps.map((step: unknown) =>
      isObject(step) && typeof step.worker === "number"
        ? { ...step, worker: workerIdAt(ids, step.worker) }
        : step,
    );
    return { ...st, steps };
  });
  return { ...raw, strategies };
}
