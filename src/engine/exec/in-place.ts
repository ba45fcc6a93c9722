import type { ChatBackend } from "../llm/types.ts";
import { nestedOwnerFinish, questionAt } from "../run/focus.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Worker } from "../schema/worker.ts";
import type { CallBudget } from "./execute.ts";
import { executeWorkflow } from "./execute.ts";
import type { NestedContext } from "./nested.ts";
import { nestedRunner } from "./nested.ts";
import { finish, finishFor } from "./ending.ts";
import type { RunEnd, RunnerOptions, RunStart } from "./runner-options.ts";

/**
 * An edited nested workflow re-run where it sits (docs/protocol.md §1.6): it sees its own question,
 * its events land at its place in the record, and its answer becomes its step's output.
 */
export async function* runNestedInPlace(
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
  if (outcome.status !== "done")
    return { finish: finishFor(outcome, now(), previous), lastRound: outcome };
  // With no record to sit in, the workflow's answer is the run's.
  if (!base)
    return {
      finish: finish("no_rounds", { at: now(), answer: outcome.answer }),
      lastRound: outcome,
    };
  const { event, runAnswer } = nestedOwnerFinish(base, focus, outcome.answer ?? "", now());
  if (event) yield event;
  return { finish: finish("no_rounds", { at: now(), answer: runAnswer }), lastRound: outcome };
}
