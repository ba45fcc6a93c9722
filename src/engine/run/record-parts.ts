import { modelIdOf } from "../conductor/shown-ids.ts";
import type { EventOf } from "../schema/events.ts";
import type {
  FailedAttempt,
  PlanRecord,
  RetryState,
  RoundRecord,
  RunRecord,
  StepRecord,
} from "../schema/record.ts";
import type { Step } from "../schema/workflow.ts";
import { isUnusablePlan } from "../exec/fallback.ts";
import { ZERO_TOTALS } from "./totals.ts";
import { DEFAULT_MAX_STEPS, DEFAULT_ROUNDS } from "../constants.ts";

// The parts a run record is built from: empty records, rounds and steps, and what retries and
// rejected plans leave on them.

/** A record with nothing run yet. */
export function emptyRecord(id = "run"): RunRecord {
  return {
    id,
    kind: "manual",
    parentId: null,
    kept: [],
    createdAt: null,
    planningMs: null,
    executionMs: null,
    prompt: null,
    question: "",
    pool: [],
    conductor: null,
    maxSteps: DEFAULT_MAX_STEPS,
    maxRounds: DEFAULT_ROUNDS,
    status: "draft",
    endReason: null,
    message: null,
    startedAt: null,
    finishedAt: null,
    rounds: [],
    answer: null,
    totals: ZERO_TOTALS,
  };
}

export function emptyRound(index: number): RoundRecord {
  return { index, plan: null, lists: null, steps: [], answer: null, accepted: false };
}

/** A step record for a step of the workflow, not run yet. */
export function stepRecord(record: Pick<RunRecord, "pool">, step: Step, index: number): StepRecord {
  return {
    index,
    worker: step.worker,
    workerName: record.pool.find((w) => w.id === step.worker)?.name ?? step.worker,
    subtask: step.subtask,
    access: step.access,
    status: "idle",
    messages: [],
    output: "",
    startedAt: null,
    finishedAt: null,
    attempts: 0,
    usage: null,
    cost: null,
    error: null,
    nested: null,
  };
}

/** A round's lists in the Conductor's numbering of `workerIds` (the pool as its prompt showed it). */
export function listsOf(
  steps: readonly Step[],
  workerIds: readonly string[],
): RoundRecord["lists"] {
  return {
    model_id: steps.map((s) => modelIdOf(workerIds, s.worker)),
    subtasks: steps.map((s) => s.subtask),
    access_list: steps.map((s) => s.access),
    workerIds: [...workerIds],
  };
}

/** The plan's rejected outputs, with its own if it finished with a parse error. */
export function rejectedOf(p: PlanRecord): Pick<PlanRecord, "rejected"> {
  const earlier = p.rejected ?? [];
  const own =
    p.finishedAt !== null && p.error && isUnusablePlan(p.error.code)
      ? [{ raw: p.raw, error: p.error, usage: p.usage, cost: p.cost }]
      : [];
  const all = [...earlier, ...own];
  return all.length > 0 ? { rejected: all } : {};
}

/** Appends streamed reasoning; an empty record keeps no `reasoning` field at all. */
export function more(reasoning: string | undefined, text: string): string | undefined {
  return (reasoning ?? "") + text || undefined;
}

export function retryState(e: EventOf<"step_retry"> | EventOf<"plan_retry">): RetryState {
  return {
    attempt: e.attempt,
    of: e.of ?? null,
    at: e.at,
    delayMs: e.delayMs,
    code: e.code,
    status: e.status ?? null,
    message: e.message,
  };
}

/** The attempt a retry ends: it started at `startedAt` and failed when the retry was scheduled. */
export function failedAttempt(
  e: EventOf<"step_retry"> | EventOf<"plan_retry">,
  startedAt: number | null,
): FailedAttempt {
  return {
    attempt: e.attempt - 1,
    startedAt,
    finishedAt: e.at,
    code: e.code,
    status: e.status ?? null,
    message: e.message,
  };
}
