import type { ChatBackend } from "../llm/types.ts";
import { nestedOwnerFinish, questionAt } from "../run/focus.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Worker } from "../schema/worker.ts";
import type { CallBudget, WorkflowOutcome } from "./execute.ts";
import { executeWorkflow } from "./execute.ts";
import type { NestedContext } from "./nested.ts";
import { nestedRunner } from "./nested.ts";
import type { Finish, RunEnd, RunnerOptions, RunStart } from "./runner.ts";

const BUDGET_MESSAGE = "The run reached its budget of model calls.";

/** The finish of a run whose workflow did not end done; `answer` is an earlier round's, if any. */
export function finishFor(outcome: WorkflowOutcome, at: number, answer: string | null): Finish {
  if (outcome.budgetExhausted)
    // As when the budget stops a later round's plan: an earlier round's answer stands.
    return {
      type: "run_finish",
      at,
      status: answer !== null ? "done" : "failed",
      reason: "budget",
      answer,
      message: BUDGET_MESSAGE,
    };
  if (outcome.status === "cancelled")
    return { type: "run_finish", at, status: "cancelled", reason: "cancelled", answer };
  return {
    type: "run_finish",
    at,
    status: "failed",
    reason: "step_error",
    answer,
    message: "A step failed; retry it or edit the workflow.",
  };
}

export /**
 * An edited nested workflow re-run where it sits (SPEC 1.6): it sees its own question, its
 * events land at its place in the record, and its answer becomes its step's output.
 */
async function* runNestedInPlace(
  o: RunnerOptions,
  start: Extract<RunStart, { from: "nested" }>,
  budget: CallBudget,
  backendFor: (w: Worker) => ChatBackend,
  nestedCtx: NestedContext | undefined,
  now: () => number,
): AsyncGenerator<RunEvent, RunEnd> {
  const { focus } = start;
  const base = o.base;
  const parent = focus.parent;
  const keep = start.keep ? [...start.keep.keys()].sort((a, b) => a - b) : [];
  yield { type: "round_start", at: now(), round: focus.round, steps: start.steps, keep, parent };
  const outcome = yield* executeWorkflow({
    question: base ? questionAt(base, focus) : o.question,
    steps: start.steps,
    pool: o.pool,
    backendFor,
    signal: o.signal,
    round: focus.round,
    keep: start.keep,
    budget,
    parent,
    nested: nestedCtx && nestedRunner(nestedCtx, parent.length + 1),
    retry: o.retry,
    now,
  });
  yield { type: "round_finish", at: now(), round: focus.round, answer: outcome.answer, parent };
  const previous = base?.answer ?? null;
  if (outcome.status !== "done" || !base)
    return { finish: finishFor(outcome, now(), previous), lastRound: outcome };
  const { event, runAnswer } = nestedOwnerFinish(base, focus, outcome.answer ?? "", now());
  if (event) yield event;
  return {
    finish: {
      type: "run_finish",
      at: now(),
      status: "done",
      reason: "no_rounds",
      answer: runAnswer,
    },
    lastRound: outcome,
  };
}
