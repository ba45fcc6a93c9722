import type { ChatBackend } from "../engine/llm/types.ts";
import type { NestedContext } from "../engine/exec/nested.ts";
import { nestedRunner } from "../engine/exec/nested.ts";
import { CallBudget, executeWorkflow } from "../engine/exec/execute.ts";
import type { PriorStep } from "../engine/exec/messages.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import type { Pool, Worker } from "../engine/schema/worker.ts";
import type { Step } from "../engine/schema/workflow.ts";
import { nestedRerunEvents } from "./focus.ts";
import type { Focus } from "./run.ts";
import { roundAt } from "./run.ts";

export interface RerunOptions {
  record: RunRecord;
  focus: Focus;
  steps: Step[];
  pool: Pool;
  backendFor: (w: Worker) => ChatBackend;
  signal: AbortSignal;
  keep: ReadonlyMap<number, string>;
  maxCalls?: number;
  /** Enables self-selected steps inside the workflow (their nested levels go one deeper). */
  self?: Omit<NestedContext, "pool" | "backendFor" | "budget" | "now" | "retry">;
}

function priorOf(record: RunRecord, focus: Focus): PriorStep[] | undefined {
  if (focus.parent.length || focus.round === 0) return undefined;
  return roundAt(record, { parent: [], round: focus.round - 1 })?.steps.map((s) => ({
    worker: s.worker,
    subtask: s.subtask,
    output: s.status === "done" ? s.output : "",
  }));
}

/** The question a workflow in focus answers: the run's, or a nested workflow's own. */
function questionOf(record: RunRecord, focus: Focus): string {
  const last = focus.parent.at(-1);
  if (!last) return record.question;
  const owner = roundAt(record, { parent: focus.parent.slice(0, -1), round: last.round })?.steps[
    last.step
  ];
  return owner?.nested?.question ?? record.question;
}

/**
 * Re-runs an edited later round or nested workflow in place (SPEC 1.6): it sees what it saw during
 * the run (the previous round, or its own question), its events land at its place in the record,
 * and a nested workflow's new answer becomes its step's output.
 */
export async function* rerunInPlace(o: RerunOptions): AsyncGenerator<RunEvent, void> {
  const { focus, record } = o;
  const tag = focus.parent.length ? { parent: focus.parent } : {};
  const budget = new CallBudget(o.maxCalls ?? Infinity);
  const keep = [...o.keep.keys()].sort((a, b) => a - b);
  yield { type: "round_start", at: Date.now(), round: focus.round, steps: o.steps, keep, ...tag };
  const withSelf = (w: Worker) =>
    w.kind === "conductor" && o.self ? o.self.conductorBackend : o.backendFor(w);
  const outcome = yield* executeWorkflow({
    question: questionOf(record, focus),
    steps: o.steps,
    pool: o.pool,
    backendFor: withSelf,
    signal: o.signal,
    round: focus.round,
    previousRound: priorOf(record, focus),
    keep: o.keep,
    budget,
    parent: focus.parent.length ? focus.parent : undefined,
    nested:
      o.self &&
      nestedRunner(
        { ...o.self, pool: o.pool, backendFor: withSelf, budget },
        focus.parent.length + 1,
      ),
  });
  yield {
    type: "round_finish",
    at: Date.now(),
    round: focus.round,
    answer: outcome.answer,
    ...tag,
  };
  if (outcome.status !== "done") {
    const cancelled = outcome.status === "cancelled";
    yield {
      type: "run_finish",
      at: Date.now(),
      status: cancelled ? "cancelled" : "failed",
      reason: cancelled ? "cancelled" : outcome.budgetExhausted ? "budget" : "step_error",
      answer: record.answer,
    };
    return;
  }
  if (focus.parent.length) {
    yield* nestedRerunEvents(record, focus, outcome.answer ?? "", Date.now());
    return;
  }
  const isLast = focus.round === record.rounds.length - 1;
  yield {
    type: "run_finish",
    at: Date.now(),
    status: "done",
    reason: "no_rounds",
    answer: isLast ? outcome.answer : record.answer,
  };
}
