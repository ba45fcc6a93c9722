import { buildConductorMessages } from "../conductor/prompt.ts";
import { buildRefinementConversation } from "../conductor/refine.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { EventOf, RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { ConductorConfig, Pool, Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { DEFAULT_MAX_STEPS } from "../schema/workflow.ts";
import type { StepOutcome, WorkflowOutcome } from "./execute.ts";
import { CallBudget, executeWorkflow } from "./execute.ts";
import type { PriorStep } from "./messages.ts";
import type { NestedContext } from "./nested.ts";
import { nestedRunner } from "./nested.ts";
import { planRound } from "./plan.ts";
import type { RetryPolicy } from "./retry.ts";

export interface PromptSettings {
  template?: string;
  systemPrompt?: string;
  opening?: string;
  /** Named worker lines with notes (a prompted general model) or anonymous `Model id i` (trained). */
  namedWorkers?: boolean;
}

export interface RunOptions {
  question: string;
  pool: Pool;
  conductor: ConductorConfig;
  conductorBackend: ChatBackend;
  backendFor: (worker: Worker) => ChatBackend;
  signal: AbortSignal;
  maxSteps?: number;
  /** Extra refinement rounds after the first (SPEC 1.6); 0 runs a single round. */
  maxRounds?: number;
  /** Cap on model calls in the whole run, Conductor calls included. */
  maxCalls?: number;
  /** Levels of self-selection (SPEC 1.6): a step given to the Conductor plans and runs a nested workflow. */
  maxDepth?: number;
  prompt?: PromptSettings;
  retry?: Partial<RetryPolicy>;
  runId?: string;
  now?: () => number;
  /**
   * Round 0 as already planned (and perhaps edited by the user): it runs without asking the
   * Conductor again, and no run_start is emitted since the caller's record holds the start and
   * the plan. Refinement rounds then follow as usual.
   */
  firstRound?: { raw: string; steps: Step[] };
}

/** A run id that sorts by start time and is unique enough to tell exports apart. */
export function newRunId(now: number = Date.now()): string {
  return `run-${new Date(now).toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
}

function priorSteps(steps: Step[], outcomes: StepOutcome[]): PriorStep[] {
  return steps.map((s, i) => {
    const o = outcomes[i];
    return { worker: s.worker, subtask: s.subtask, output: o?.status === "done" ? o.output : "" };
  });
}

type Finish = EventOf<"run_finish">;

function finishFor(outcome: WorkflowOutcome, at: number): Finish {
  if (outcome.budgetExhausted)
    return {
      type: "run_finish",
      at,
      status: "failed",
      reason: "budget",
      answer: null,
      message: "The run reached its budget of model calls.",
    };
  if (outcome.status === "cancelled")
    return { type: "run_finish", at, status: "cancelled", reason: "cancelled", answer: null };
  return {
    type: "run_finish",
    at,
    status: "failed",
    reason: "step_error",
    answer: null,
    message: "A step failed; retry it or edit the workflow.",
  };
}

/**
 * The whole Conductor run: plan with the Conductor, execute the workflow, then up to `maxRounds`
 * refinement rounds in which the Conductor accepts the answer (three empty lists) or writes a new
 * workflow that sees the previous round. Yields every event; never throws on model failures.
 */
export async function* runConductor(o: RunOptions): AsyncGenerator<RunEvent, void> {
  const now = o.now ?? Date.now;
  const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxRounds = o.maxRounds ?? 0;
  const budget = new CallBudget(o.maxCalls ?? Infinity);
  const nestedCtx: NestedContext = {
    ...o,
    backendFor: withSelf(o.backendFor, o.conductorBackend),
    maxSteps,
    maxDepth: o.maxDepth ?? 1,
    budget,
    now,
  };
  const continuesAssistant = o.conductorBackend.continuesAssistant;
  if (!o.firstRound)
    yield {
      type: "run_start",
      at: now(),
      runId: o.runId ?? newRunId(now()),
      question: o.question,
      pool: o.pool,
      conductor: o.conductor,
      maxSteps,
      maxRounds,
    };
  let messages: ChatMessage[] = buildConductorMessages({
    question: o.question,
    pool: o.pool,
    maxSteps,
    namedWorkers: o.prompt?.namedWorkers ?? false,
    continuesAssistant,
    template: o.prompt?.template,
    systemPrompt: o.prompt?.systemPrompt,
    opening: o.prompt?.opening,
  });
  let answer: string | null = null;
  let previous: PriorStep[] | undefined;
  for (let round = 0; round <= maxRounds; round++) {
    const plan =
      round === 0 && o.firstRound
        ? { ok: true as const, ...o.firstRound }
        : yield* planRound({
            backend: o.conductorBackend,
            conductor: o.conductor,
            messages,
            workers: o.pool.length,
            maxSteps,
            round,
            signal: o.signal,
            retry: o.retry,
            budget,
            now,
          });
    if (!plan.ok) {
      if (plan.cancelled)
        yield { type: "run_finish", at: now(), status: "cancelled", reason: "cancelled", answer };
      else if (plan.code === "budget")
        yield {
          type: "run_finish",
          at: now(),
          status: round > 0 ? "done" : "failed",
          reason: "budget",
          answer,
          message: plan.message,
        };
      else
        yield {
          type: "run_finish",
          at: now(),
          status: "failed",
          reason: "plan_error",
          answer,
          message: plan.message,
        };
      return;
    }
    if (round > 0 && plan.steps.length === 0) {
      yield { type: "run_finish", at: now(), status: "done", reason: "accepted", answer };
      return;
    }
    yield { type: "round_start", at: now(), round, steps: plan.steps };
    const outcome = yield* executeWorkflow({
      question: o.question,
      steps: plan.steps,
      pool: o.pool,
      backendFor: nestedCtx.backendFor,
      nested: nestedRunner(nestedCtx, 1),
      signal: o.signal,
      round,
      previousRound: previous,
      retry: o.retry,
      budget,
      now,
    });
    yield { type: "round_finish", at: now(), round, answer: outcome.answer };
    if (outcome.status !== "done") {
      const end = finishFor(outcome, now());
      // As when the budget stops a later round's plan: the earlier rounds' answer stands.
      const status = end.reason === "budget" && answer !== null ? "done" : end.status;
      yield { ...end, status, answer };
      return;
    }
    answer = outcome.answer;
    previous = priorSteps(plan.steps, outcome.outcomes);
    if (round < maxRounds) {
      messages = buildRefinementConversation(messages, plan.raw, answer ?? "", round + 1, {
        continuesAssistant,
        opening: o.prompt?.opening,
      });
    }
  }
  yield {
    type: "run_finish",
    at: now(),
    status: "done",
    reason: maxRounds > 0 ? "round_cap" : "no_rounds",
    answer,
  };
}

/** Serves a worker that is the Conductor itself (past the depth cap) with the Conductor's backend. */
function withSelf(backendFor: (w: Worker) => ChatBackend, conductor: ChatBackend | undefined) {
  return (w: Worker): ChatBackend =>
    w.kind === "conductor" && conductor ? conductor : backendFor(w);
}

export interface WorkflowRunOptions {
  question: string;
  pool: Pool;
  steps: Step[];
  backendFor: (worker: Worker) => ChatBackend;
  signal: AbortSignal;
  keep?: ReadonlyMap<number, string>;
  previousRound?: PriorStep[];
  round?: number;
  retry?: Partial<RetryPolicy>;
  maxCalls?: number;
  runId?: string;
  now?: () => number;
  /** Enables self-selected steps: the Conductor that plans their nested workflows. */
  self?: Omit<NestedContext, "pool" | "backendFor" | "budget" | "now" | "retry">;
}

/**
 * Runs a workflow the user already has (planned earlier, edited, or imported) without asking the
 * Conductor: the round and the run's finish (the caller's record already holds the run's start).
 * `keep` re-runs from a step while keeping the outputs of the steps it names.
 */
export async function* runWorkflow(
  o: WorkflowRunOptions,
): AsyncGenerator<RunEvent, WorkflowOutcome> {
  const now = o.now ?? Date.now;
  const round = o.round ?? 0;
  const keep = o.keep ? [...o.keep.keys()].sort((a, b) => a - b) : undefined;
  yield { type: "round_start", at: now(), round, steps: o.steps, keep };
  const budget = new CallBudget(o.maxCalls ?? Infinity);
  const backendFor = withSelf(o.backendFor, o.self?.conductorBackend);
  const nested =
    o.self && nestedRunner({ ...o.self, pool: o.pool, backendFor, budget, now, retry: o.retry }, 1);
  const outcome = yield* executeWorkflow({ ...o, round, budget, now, backendFor, nested });
  yield { type: "round_finish", at: now(), round, answer: outcome.answer };
  yield outcome.status === "done"
    ? { type: "run_finish", at: now(), status: "done", reason: "no_rounds", answer: outcome.answer }
    : finishFor(outcome, now());
  return outcome;
}
