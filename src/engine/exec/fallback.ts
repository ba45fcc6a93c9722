// When the Conductor cannot plan: ask it once more where its output did not parse, then (opt-in)
// let one named worker answer the question alone, recorded as a fallback on the round.
import type { Failure } from "../errors.ts";
import { ErrorCode, isPlanOutputError } from "../errors.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Pool } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { PlanOptions, PlanOutcome } from "./plan.ts";
import { planRound } from "./plan.ts";

/** What a run does when the Conductor's plan fails. */
export interface FallbackPolicy {
  /** Times the Conductor is asked again when its output does not parse (default 0). */
  replans?: number;
  /** The worker (by id) that answers alone when the Conductor still has no usable plan. */
  workerId?: string;
}

/** True for a plan that came back but did not parse (asking again may help; a refused key will not). */
export function isUnusablePlan(code: string): boolean {
  return isPlanOutputError(code);
}

/**
 * Plans a round, asking the Conductor again (up to `replans` times) while its output does not
 * parse. Each new attempt is announced as a `plan_retry` whose code is the parse error; the record
 * keeps every rejected output on the plan (`rejected`).
 */
export async function* planWithReplans(
  o: PlanOptions,
  replans: number,
): AsyncGenerator<RunEvent, PlanOutcome> {
  const now = o.now ?? Date.now;
  let plan = yield* planRound(o);
  for (let again = 1; again <= replans && !plan.ok && isUnusablePlan(plan.code); again++) {
    if (o.signal.aborted) break;
    yield {
      type: "plan_retry",
      ...(o.parent ? { parent: o.parent } : {}),
      at: now(),
      round: o.round,
      attempt: again + 1,
      of: replans + 1,
      delayMs: 0,
      code: plan.code,
      message: `Asking the Conductor again: ${plan.message}`,
    };
    plan = yield* planRound(o);
  }
  return plan;
}

/** The subtask a fallback worker gets: the whole question, as a single worker would answer it. */
export const FALLBACK_SUBTASK = "Answer the question directly and completely.";

/**
 * The one-step workflow that answers in the Conductor's place, with why; undefined when no
 * fallback applies (none configured, the worker is gone from the pool, or the run was stopped).
 */
export function fallbackFor(
  policy: FallbackPolicy | undefined,
  pool: Pool,
  failed: Failure & { cancelled: boolean },
): { steps: Step[]; fallback: { worker: string; reason: Failure } } | undefined {
  const id = policy?.workerId;
  if (!id || failed.cancelled || failed.code === ErrorCode.budget) return undefined;
  if (!pool.some((w) => w.id === id)) return undefined;
  return {
    steps: [{ worker: id, subtask: FALLBACK_SUBTASK, access: [] }],
    fallback: { worker: id, reason: { code: failed.code, message: failed.message } },
  };
}
