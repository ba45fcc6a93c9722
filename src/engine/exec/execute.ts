import { callCost, pricedUsage } from "../cost.ts";
import { ErrorCode, failure } from "../errors.ts";
import type { ChatBackend } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { ParentPath, RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Pool, Price, Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { visibleSteps } from "../schema/workflow.ts";
import { addCall, usageOf, ZERO_TOTALS } from "../run/totals.ts";
import { callSite, callWithRetry, retryFields } from "./call.ts";
import type { PriorStep } from "./messages.ts";
import { shownIds } from "../conductor/shown-ids.ts";
import { buildWorkerMessages, prefillModeOf } from "./messages.ts";
import { AsyncQueue } from "./queue.ts";
import type { RetryPolicy } from "./retry.ts";
import { DEFAULT_RETRY } from "./retry.ts";

/** Counts model calls across a whole run (rounds and nested levels) against an optional cap. */
export class CallBudget {
  /** `used`: calls the run already made before this budget (a planned run that now runs). */
  constructor(
    readonly max: number = Infinity,
    public used = 0,
  ) {}
  take(): boolean {
    if (this.used >= this.max) return false;
    this.used++;
    return true;
  }
}

/** What a nested plan-and-execute returns to the step that ran it. */
export type NestedResult =
  | { status: "done"; answer: string | null }
  | { status: "failed" | "cancelled"; answer: null; code: ErrorCode; message: string };

/**
 * Runs a self-selected step's nested workflow (docs/protocol.md §1.6): given what the step's worker
 * would read, it yields the nested level's events (tagged with `parent`) and returns its answer.
 */
export type NestedRunner = (input: {
  messages: ChatMessage[];
  parent: ParentPath;
  signal: AbortSignal;
}) => AsyncGenerator<RunEvent, NestedResult>;

export interface ExecuteOptions {
  question: string;
  steps: Step[];
  pool: Pool;
  /** The backend that serves a worker; called once per step run. */
  backendFor: (worker: Worker) => ChatBackend;
  signal: AbortSignal;
  round?: number;
  /**
   * The previous round's steps with their outputs, shown where this round uses "all"
   * (docs/protocol.md §1.6).
   */
  previousRound?: PriorStep[];
  /** Outputs of steps that are kept rather than re-run (re-run from a step). */
  keep?: ReadonlyMap<number, string>;
  retry?: Partial<RetryPolicy>;
  budget?: CallBudget;
  /** Where this workflow sits when it is nested; absent at the top level. */
  parent?: ParentPath;
  /** Runs steps whose worker is the Conductor itself; absent past the depth cap (they run as plain calls). */
  nested?: NestedRunner;
  /**
   * The Conductor's price: a step given to the Conductor itself that runs as a plain call (past
   * the depth cap) is a call to the Conductor's model, and costs what its calls cost.
   */
  selfPrice?: Price;
  now?: () => number;
}

export type StepOutcome = { status: "done"; output: string } | { status: "failed" | "cancelled" };

export interface WorkflowOutcome {
  status: "done" | "failed" | "cancelled";
  outcomes: StepOutcome[];
  /**
   * The last step's output, or the last non-empty one (docs/protocol.md §1.1); null when nothing
   * finished.
   */
  answer: string | null;
  /** Set when the run stopped because the call budget ran out. */
  budgetExhausted: boolean;
}

/** The workflow's answer per docs/protocol.md §1.1 from the per-step outcomes. */
export function workflowAnswer(outcomes: StepOutcome[]): string | null {
  const last = outcomes[outcomes.length - 1];
  if (!last || last.status !== "done") return null;
  if (last.output.trim()) return last.output;
  for (let i = outcomes.length - 1; i >= 0; i--) {
    const o = outcomes[i];
    if (o?.status === "done" && o.output.trim()) return o.output;
  }
  return last.output;
}

/**
 * Runs one round's workflow and yields its events. A step starts as soon as every step it sees has
 * finished, so independent steps run concurrently; each step's messages depend only on the outputs
 * it sees, so the result is identical to running the steps in order. A step whose input failed is
 * not run. Returns the outcome of every step.
 */
export async function* executeWorkflow(
  o: ExecuteOptions,
): AsyncGenerator<RunEvent, WorkflowOutcome> {
  const round = o.round ?? 0;
  const now = o.now ?? Date.now;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...o.retry };
  const queue = new AsyncQueue<RunEvent>();
  // Events of a nested workflow carry the path to the step that runs it.
  const emit = (e: RunEvent) =>
    queue.push(o.parent ? Object.assign({}, e, { parent: o.parent }) : e);
  const outputs: (string | undefined)[] = o.steps.map((_, i) => o.keep?.get(i));
  let budgetExhausted = false;

  const runStep = async (index: number, step: Step): Promise<StepOutcome> => {
    const kept = o.keep?.get(index);
    if (kept !== undefined) return { status: "done", output: kept };
    const worker = o.pool.find((w) => w.id === step.worker);
    if (!worker) {
      const f = failure(
        "missing_worker",
        `step ${index + 1} uses worker ${JSON.stringify(step.worker)}; choose one from the pool for it.`,
      );
      emit({ type: "step_error", at: now(), round, step: index, ...f });
      return { status: "failed" };
    }
    const messages = buildWorkerMessages({
      question: o.question,
      steps: o.steps,
      workerIds: shownIds(o.pool),
      index,
      outputs,
      previousRound: o.previousRound,
      prefill: prefillModeOf(worker),
    });
    if (worker.kind === "conductor" && o.nested) {
      const outcome = await runNestedStep(o.nested, index, messages);
      if (outcome.status === "done") outputs[index] = outcome.output;
      return outcome;
    }
    // Whether the worker was called at all: a budget that refuses the first attempt leaves the
    // step not run (skipped), not failed.
    let attempted = false;
    try {
      const result = await callWithRetry(
        o.backendFor(worker),
        {
          messages,
          temperature: worker.temperature,
          maxTokens: worker.maxTokens,
          ...(worker.extraBody ? { extraBody: worker.extraBody } : {}),
          site: callSite(o.parent, round, index),
        },
        o.signal,
        policy,
        {
          mayCall: o.budget ? () => o.budget!.take() : undefined,
          onAttempt: (attempt) => {
            attempted = true;
            emit({ type: "step_start", at: now(), round, step: index, attempt, messages });
          },
          onDelta: (text) => emit({ type: "step_delta", round, step: index, text }),
          onReasoning: (text) => emit({ type: "step_reasoning", round, step: index, text }),
          onReclassify: (text) =>
            emit({ type: "step_reasoning", round, step: index, text, reclassified: true }),
          onRetry: (...retry) =>
            emit({ type: "step_retry", at: now(), round, step: index, ...retryFields(...retry) }),
        },
      );
      outputs[index] = result.text;
      const price = worker.kind === "conductor" ? (o.selfPrice ?? worker.price) : worker.price;
      const cost = callCost(result.usage, price);
      emit({
        type: "step_finish",
        at: now(),
        round,
        step: index,
        output: result.text,
        ...(result.reasoning ? { reasoning: result.reasoning } : {}),
        usage: pricedUsage(result.usage, price, worker.kind === "openai"),
        cost,
      });
      return { status: "done", output: result.text };
    } catch (e: unknown) {
      if (e instanceof LlmError && e.code === ErrorCode.aborted) {
        emit({ type: "step_cancel", at: now(), round, step: index });
        return { status: "cancelled" };
      }
      if (e instanceof LlmError && e.code === ErrorCode.budget) {
        budgetExhausted = true;
        if (!attempted) {
          emit({
            type: "step_skip",
            at: now(),
            round,
            step: index,
            ...failure("budget", e.message),
          });
          return { status: "failed" };
        }
      }
      const err = e instanceof LlmError ? e : new LlmError("unknown", String(e));
      emit({
        type: "step_error",
        at: now(),
        round,
        step: index,
        code: err.code,
        message: err.message,
      });
      return { status: "failed" };
    }
  };

  /**
   * A step given to the Conductor itself (docs/protocol.md §1.6): a nested plan-and-execute whose
   * events pass through, and whose answer is the step's output. The step's usage is the nested
   * calls' sum, marked `aggregate` because each call was already counted as it happened.
   */
  const runNestedStep = async (
    runner: NestedRunner,
    index: number,
    messages: ChatMessage[],
  ): Promise<StepOutcome> => {
    emit({ type: "step_start", at: now(), round, step: index, attempt: 1, messages });
    const parent = [...(o.parent ?? []), { round, step: index }];
    const gen = runner({ messages, parent, signal: o.signal });
    // The nested calls as the record will count them (totals.ts), each once.
    let sum = ZERO_TOTALS;
    for (;;) {
      const next = await gen.next();
      if (next.done) {
        const r = next.value;
        if (r.status === "done" && r.answer !== null) {
          const output = r.answer;
          emit({
            type: "step_finish",
            at: now(),
            round,
            step: index,
            output,
            usage: usageOf(sum),
            cost: sum.cost,
            aggregate: true,
          });
          return { status: "done", output };
        }
        if (r.status === "cancelled" || o.signal.aborted) {
          emit({ type: "step_cancel", at: now(), round, step: index });
          return { status: "cancelled" };
        }
        const f =
          r.status === "done"
            ? failure("empty_response", "The nested workflow gave no answer.")
            : r;
        if (f.code === ErrorCode.budget) budgetExhausted = true;
        emit({
          type: "step_error",
          at: now(),
          round,
          step: index,
          code: f.code,
          message: f.message,
        });
        return { status: "failed" };
      }
      const e = next.value;
      if (e.type === "plan_finish" || (e.type === "step_finish" && !e.aggregate))
        sum = addCall(sum, e.usage, e.cost);
      queue.push(e); // already tagged with its own, deeper parent path
    }
  };

  const promises: Promise<StepOutcome>[] = [];
  o.steps.forEach((step, index) => {
    const deps = visibleSteps(step.access, index).map((d) => promises[d]!);
    promises.push(
      Promise.all(deps).then((depOutcomes) => {
        if (o.signal.aborted) {
          emit({ type: "step_cancel", at: now(), round, step: index });
          return { status: "cancelled" };
        }
        const blocked = depOutcomes.findIndex((d) => d.status !== "done");
        if (blocked >= 0) {
          const cancelled = depOutcomes[blocked]?.status === "cancelled";
          emit(
            cancelled
              ? { type: "step_cancel", at: now(), round, step: index }
              : {
                  type: "step_skip",
                  at: now(),
                  round,
                  step: index,
                  ...failure(
                    "upstream_failed",
                    `step ${index + 1} needs step ${visibleSteps(step.access, index)[blocked]! + 1}.`,
                  ),
                },
          );
          return { status: cancelled ? "cancelled" : "failed" };
        }
        return runStep(index, step);
      }),
    );
  });
  for (let i = 0; i < o.steps.length; i++) {
    if (!o.keep?.has(i))
      yield { type: "step_queued", round, step: i, ...(o.parent && { parent: o.parent }) };
  }
  const all = Promise.all(promises).finally(() => queue.close());
  yield* queue;
  const outcomes = await all;
  // A user's cancel wins over a failure that happened before it: the user stopped the run.
  const status = o.signal.aborted
    ? "cancelled"
    : outcomes.some((s) => s.status === "failed")
      ? "failed"
      : outcomes.some((s) => s.status === "cancelled")
        ? "cancelled"
        : "done";
  return {
    status,
    outcomes,
    answer: status === "done" ? workflowAnswer(outcomes) : null,
    budgetExhausted,
  };
}
