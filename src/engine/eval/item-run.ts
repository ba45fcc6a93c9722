import type { FallbackPolicy } from "../exec/fallback.ts";
import type { RetryPolicy } from "../exec/retry.ts";
import type { PromptSettings } from "../exec/run.ts";
import { runConductor, runWorkflow } from "../exec/run.ts";
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
