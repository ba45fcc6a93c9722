import { ENDING_TEXT, EndReason } from "../errors.ts";
import type { EventOf } from "../schema/events.ts";
import type { WorkflowOutcome } from "./execute.ts";

export type Finish = EventOf<"run_finish">;

/** The status a run ends in for each reason; `budget` depends on whether an answer stands. */
const STATUS: Readonly<Record<Exclude<EndReason, "budget">, Finish["status"]>> = {
  planned: "planned",
  accepted: "done",
  round_cap: "done",
  no_rounds: "done",
  plan_error: "failed",
  step_error: "failed",
  cancelled: "cancelled",
  no_conductor: "failed",
  setup_error: "failed",
};

/** Reasons whose finish says why in words (the others speak for themselves). */
const EXPLAINED: ReadonlySet<EndReason> = new Set([
  EndReason.plan_error,
  EndReason.step_error,
  EndReason.budget,
  EndReason.no_conductor,
  EndReason.setup_error,
]);

/**
 * The one constructor of a run's end. The status follows from the reason, with one budget rule:
 * a budget that stops the run leaves it done when an earlier round's answer stands, failed when
 * none does. `message` defaults to the ending's text (ENDING_TEXT) where the reason needs words.
 */
export function finish(
  reason: EndReason,
  o: { at: number; answer: string | null; message?: string },
): Finish {
  const status =
    reason === EndReason.budget ? (o.answer !== null ? "done" : "failed") : STATUS[reason];
  const message = o.message ?? (EXPLAINED.has(reason) ? ENDING_TEXT[reason] : undefined);
  return {
    type: "run_finish",
    at: o.at,
    status,
    reason,
    answer: reason === EndReason.planned ? null : o.answer,
    ...(message !== undefined ? { message } : {}),
  };
}

/** The end of a run whose workflow did not end done; `answer` is an earlier round's, if any. */
export function finishFor(outcome: WorkflowOutcome, at: number, answer: string | null): Finish {
  const reason: EndReason = outcome.budgetExhausted
    ? EndReason.budget
    : outcome.status === "cancelled"
      ? EndReason.cancelled
      : EndReason.step_error;
  return finish(reason, { at, answer });
}
