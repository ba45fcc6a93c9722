import type { FallbackPolicy } from "../exec/fallback.ts";
import type { RetryPolicy } from "../exec/retry.ts";
import type { PromptSettings } from "../exec/run.ts";
import { runConductor, runWorkflow } from "../exec/run.ts";
import { runRun } from "../exec/runner.ts";
import { resumePoint, seedFrom, stepsAt } from "../run/continue.ts";
import type { RunRecord } from "../schema/record.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Worker } from "../schema/worker.ts";
import { DEFAULT_MAX_STEPS } from "../constants.ts";
import type { Evaluation } from "./schema.ts";
import type { Strategy } from "./strategy.ts";
import { formatInstruction, stepsFor } from "./strategy.ts";

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
 * The events of one evaluation item's run, through the engine's one runner: `runConductor` for the
 * Conductor, `runWorkflow` for a fixed strategy's steps. Either way the log starts with run_start,
 * so the recorder builds a whole run record.
 */
export function itemRunEvents(c: ItemRunContext): AsyncGenerator<RunEvent, unknown> {
  const e = c.evaluation;
  const common = {
    pool: e.pool,
    backendFor: c.backendFor,
    signal: c.signal,
    retry: c.retry,
    maxCalls: c.maxCalls,
    runId: c.runId,
    now: c.now,
  };
  if (c.strategy.kind === "conductor") {
    if (!e.conductor || !c.conductorBackend)
      return failedRun(c.runId, c.question, e, c.now(), "No Conductor is configured.");
    return runConductor({
      ...common,
      question: c.question,
      conductor: e.conductor,
      conductorBackend: c.conductorBackend,
      maxSteps: c.strategy.maxSteps ?? DEFAULT_MAX_STEPS,
      maxRounds: c.strategy.rounds,
      prompt: c.prompt,
      fallback: c.fallback,
    });
  }
  const steps = stepsFor(c.strategy, e.pool, e.instruction ?? formatInstruction(e.scorer.id));
  if (typeof steps === "string") return failedRun(c.runId, c.question, e, c.now(), steps);
  return withStart(
    c.runId,
    c.question,
    e,
    c.now(),
    runWorkflow({ ...common, question: c.question, steps }),
  );
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
  const point = resumePoint(partial);
  const kept = point.at === "round" ? point.keep : new Map<number, string>();
  const conductor = c.strategy.kind === "conductor" ? c.strategy : null;
  // Nothing finished that a continuation would keep: the first plan, or a fixed strategy's
  // first round with no step done.
  if (point.round === 0 && (point.at === "plan" || (!conductor && kept.size === 0)))
    return itemRunEvents(c);
  const e = c.evaluation;
  const at = { parent: [], round: point.round };
  if (conductor && (!e.conductor || !c.conductorBackend))
    return failedRun(c.runId, c.question, e, c.now(), "No Conductor is configured.");
  return runRun({
    question: partial.question,
    pool: e.pool,
    backendFor: c.backendFor,
    signal: c.signal,
    retry: c.retry,
    maxCalls: c.maxCalls,
    now: c.now,
    run: { id: c.runId, kind: "resumed", parentId: null },
    base: partial,
    seed: seedFrom(partial, at, kept.keys()),
    ...(conductor
      ? {
          conductor: e.conductor ?? undefined,
          conductorBackend: c.conductorBackend,
          maxSteps: conductor.maxSteps ?? DEFAULT_MAX_STEPS,
          maxRounds: conductor.rounds,
          prompt: c.prompt,
          refine: conductor.rounds > 0,
        }
      : { refine: false, selfSelect: false }),
    start:
      point.at === "plan"
        ? { from: "plan", round: point.round }
        : { from: "round", round: point.round, steps: stepsAt(partial, at), keep: kept },
  });
}

function startEvent(runId: string, question: string, e: Evaluation, at: number): RunEvent {
  return {
    type: "run_start",
    at,
    runId,
    question,
    pool: e.pool,
    maxSteps: DEFAULT_MAX_STEPS,
    maxRounds: 0,
  };
}

/** runWorkflow leaves the start to its caller's record: an evaluation item is a whole run. */
async function* withStart(
  runId: string,
  question: string,
  e: Evaluation,
  at: number,
  inner: AsyncGenerator<RunEvent, unknown>,
): AsyncGenerator<RunEvent, unknown> {
  yield startEvent(runId, question, e, at);
  return yield* inner;
}

// eslint-disable-next-line @typescript-eslint/require-await -- an async generator for one interface
async function* failedRun(
  runId: string,
  question: string,
  e: Evaluation,
  at: number,
  message: string,
) {
  yield startEvent(runId, question, e, at);
  yield {
    type: "run_finish",
    at,
    status: "failed",
    reason: "step_error",
    answer: null,
    message,
  } satisfies RunEvent;
}
