import { EndReason } from "../errors.ts";
import type { RunRecord, Totals } from "../schema/record.ts";
import type { EvalError } from "./outcome.ts";
import type { PosedItem } from "./pose.ts";
import type { Task } from "./runner-types.ts";
import type { EvalResult } from "./schema.ts";

/**
 * An item's result as its run measured it (tokens, cost, latency, calls, how it ended), before
 * any score: `correct` null and score 0 until the scorer's verdict is applied.
 */
export function measuredResult(
  task: Task,
  posed: PosedItem,
  record: RunRecord,
  /** The whole item's totals (a continued run's kept parts included). */
  t: Totals,
  error: EvalError | null,
  now: number,
): EvalResult {
  return {
    item: task.item.id,
    strategy: task.name,
    repeat: task.repeat,
    correct: null,
    score: 0,
    answer: record.answer,
    expected: posed.expected ?? null,
    tokens: t.promptTokens + t.completionTokens,
    cost: t.cost,
    latencyMs: Math.max(0, (record.finishedAt ?? now) - (record.startedAt ?? now)),
    runId: record.id,
    calls: t.calls,
    ...(t.cachedCalls ? { cachedCalls: t.cachedCalls } : {}),
    ...(t.unpricedCalls ? { unpricedCalls: t.unpricedCalls } : {}),
    ...(t.savedCost ? { savedCost: t.savedCost } : {}),
    extracted: null,
    status: record.status,
    endReason: record.endReason,
    // A Conductor call that failed is an error, not a plan that failed to parse.
    planFailed: record.endReason === EndReason.plan_error && !error,
    ...(record.rounds[0]?.fallback ? { fallback: true } : {}),
    finishedAt: now,
    error,
    ...(task.item.category ? { category: task.item.category } : {}),
  };
}
