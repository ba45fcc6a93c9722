import type { FallbackPolicy } from "../exec/fallback.ts";
import type { RetryPolicy } from "../exec/retry.ts";
import type { PromptSettings, RunnerOptions } from "../exec/runner.ts";
import { runRun } from "../exec/runner.ts";
import { planResume } from "../run/rerun.ts";
import type { RunRecord } from "../schema/record.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Worker } from "../schema/worker.ts";
import { DEFAULT_MAX_STEPS } from "../constants.ts";
import type { Evaluation } from "./schema.ts";
import type { Strategy } from "./strategy.ts";
import { stepsFor } from "./strategy.ts";

export interface ItemRunContext {
  evaluation: Evaluation;
  strategy: Strategy;
  /** The question as posed (choices lettered, answer-format instruction appended). */
  question: string;
  runId: string;
  backendFor: (w: Worker) => ChatBackend;
  conductorBackend: ChatBackend | undefined;
  signal: AbortSignal;
  retry?: Partial<RetryPolicy>;
  maxCalls?: number;
  prompt?: PromptSettings;
  /** The Conductor strategy's answer when its plan fails. */
  fallback?: FallbackPolicy;
  now: () => number;
}

/**
 * The events of one evaluation item's run, through the engine's one runner (`runRun`) like every
 * other run: the Conductor plans and refines, a fixed strategy's steps run as one round. The log is
 * a whole run (run_start to run_finish). A Conductor strategy without a Conductor ends
 * `no_conductor`; a strategy naming a worker the pool lacks ends `setup_error`.
 */
export function itemRunEvents(c: ItemRunContext): AsyncGenerator<RunEvent, unknown> {
  const e = c.evaluation;
  // Every item is its own run, planned by the evaluation.
  const common = runBase(c, c.question, { id: c.runId, kind: "planned" });
  if (c.strategy.kind === "conductor")
    return runRun({
      ...common,
      conductor: e.conductor ?? undefined,
      conductorBackend: e.conductor ? c.conductorBackend : undefined,
      maxSteps: c.strategy.maxSteps ?? DEFAULT_MAX_STEPS,
      maxRounds: c.strategy.rounds,
      prompt: c.prompt,
      fallback: c.fallback,
      refine: true,
      start: { from: "plan" },
    });
  const steps = stepsFor(c.strategy, e.pool);
  return runRun({
    ...common,
    refine: false,
    start:
      typeof steps === "string"
        ? { from: "refused", message: steps }
        : { from: "round", round: 0, steps },
  });
}

/**
 * The events of an item's run that a pause cut short, continued from `partial`: its plan and
 * finished steps are kept (their calls were paid for once and are not made again), only the rest
 * runs. A partial that stopped before any plan or step finished simply runs afresh.
 */
export function continueItemRun(
  c: ItemRunContext,
  partial: RunRecord,
): AsyncGenerator<RunEvent, unknown> {
  const conductor = c.strategy.kind === "conductor" ? c.strategy : null;
  const e = c.evaluation;
  // Where it starts and what it keeps, as the studio resumes a run.
  const resume = planResume(partial, true);
  // Nothing finished that a continuation would keep (the first plan, or a fixed strategy's first
  // round with no step done): it runs afresh. So does a Conductor strategy without a Conductor,
  // which ends no_conductor as a fresh run would.
  if (!resume.seed?.kept.length || (conductor && (!e.conductor || !c.conductorBackend)))
    return itemRunEvents(c);
  return runRun({
    ...runBase(c, partial.question, { id: c.runId, kind: "resumed", parentId: null }),
    base: partial,
    seed: resume.seed,
    // A fixed strategy has no Conductor: nothing refines its round or plans inside it.
    ...(conductor && {
      conductor: e.conductor ?? undefined,
      conductorBackend: c.conductorBackend,
      maxSteps: conductor.maxSteps ?? DEFAULT_MAX_STEPS,
      maxRounds: conductor.rounds,
      prompt: c.prompt,
      refine: resume.refine,
    }),
    start: resume.start,
  });
}

/** What every item's run shares, fresh or continued: the pool, backends, limits and clock. */
function runBase(
  c: ItemRunContext,
  question: string,
  run: RunnerOptions["run"],
): Omit<RunnerOptions, "start"> {
  return {
    question,
    pool: c.evaluation.pool,
    backendFor: c.backendFor,
    signal: c.signal,
    retry: c.retry,
    maxCalls: c.maxCalls,
    now: c.now,
    run,
  };
}
