import { z } from "zod";
import { ERROR_MESSAGES, EndReason, ErrorCode, isPlanOutputError } from "../errors.ts";
import type { RunRecord } from "../schema/record.ts";

/**
 * Where the failure of an errored item happened: a worker's call, the Conductor's call, the LLM
 * judge's call, or the evaluation's own setup (no Conductor configured, a worker the pool lacks).
 */
export const EvalErrorStageSchema = z.enum(["worker", "conductor", "judge", "setup"]);
export type EvalErrorStage = z.infer<typeof EvalErrorStageSchema>;
/** The stages by name (`EvalErrorStage.worker`); stored as the same strings. */
export const EvalErrorStage = EvalErrorStageSchema.enum;

/** Why an item has no verdict because something failed to run: a code from the error table. */
export const EvalErrorSchema = z.object({
  stage: EvalErrorStageSchema,
  code: z.string(),
  message: z.string(),
});
export type EvalError = z.infer<typeof EvalErrorSchema>;

/**
 * What a step can end in that is its model's answer rather than a failed call: an empty reply and
 * the run's call budget are outcomes of the strategy, scored wrong; everything else (auth, 5xx,
 * network, time-out, a context window exceeded) is a call that failed.
 */
const ANSWER_FAULTS: ReadonlySet<string> = new Set<ErrorCode>([
  ErrorCode.empty_response,
  ErrorCode.budget,
  ErrorCode.upstream_failed,
]);

/**
 * True when a plan failure with this code is the Conductor's own fault: its output (a list that
 * does not parse, a loop) is its answer, scored wrong (reward 0); every other plan failure is a
 * call that failed, which says nothing about the Conductor.
 */
export function isPlanFault(code: string): boolean {
  return isPlanOutputError(code);
}

/**
 * The error of a finished item's run, or null when the run's outcome can be scored: a run that
 * failed because a call failed (after its retries) is an error; a run that ended with an answer,
 * a plan that did not parse, an empty reply or a spent call budget is not.
 */
export function runError(record: RunRecord): EvalError | null {
  if (record.status !== "failed") return null;
  for (const round of record.rounds) {
    const planError = round.plan?.error;
    if (planError && !isPlanFault(planError.code))
      return { stage: EvalErrorStage.conductor, code: planError.code, message: planError.message };
    const failed = round.steps.find((s) => s.error && !ANSWER_FAULTS.has(s.error.code));
    if (failed?.error)
      return {
        stage: EvalErrorStage.worker,
        code: failed.error.code,
        message: failed.error.message,
      };
  }
  if (record.endReason === EndReason.no_conductor)
    return {
      stage: EvalErrorStage.setup,
      code: ErrorCode.no_conductor,
      message: record.message ?? "",
    };
  // The run failed before any call: nothing planned, no step ran (a missing worker).
  const ran = record.rounds.some((r) => r.plan !== null || r.steps.length > 0);
  if (!ran)
    return {
      stage: EvalErrorStage.setup,
      code: ErrorCode.invalid_config,
      message: record.message ?? "",
    };
  return null;
}

/** An item's standing in the report: a verdict, no verdict (unscored), or a failed run (error). */
export type Verdict = "right" | "wrong" | "unscored" | "error";

/** The verdict of one result: an errored item is never wrong, an unscored one never either. */
export function verdictOf(r: { correct: boolean | null; error?: EvalError | null }): Verdict {
  if (r.error) return "error";
  return r.correct === null ? "unscored" : r.correct ? "right" : "wrong";
}

/** The error code whose table message starts `message` (messages are built as "table text detail"). */
function codeOfMessage(message: string): string | null {
  const table: Readonly<Record<string, string>> = ERROR_MESSAGES;
  let best: string | null = null;
  for (const [code, text] of Object.entries(table))
    if (message.startsWith(text) && (best === null || text.length > table[best]!.length))
      best = code;
  return best;
}

/**
 * A result line written before errors were kept apart (no `error` field): a run that failed on a
 * call was recorded as a wrong answer. Its stored message names the call's error (every message
 * starts with its table text), so it becomes an error again, and a resumed evaluation retries it.
 */
export function upgradeResultObject(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || "error" in raw) return raw;
  const r = raw as Record<string, unknown>;
  if (r.status !== "failed" || typeof r.reason !== "string") return raw;
  const code = codeOfMessage(r.reason);
  if (code === null || isPlanFault(code) || ANSWER_FAULTS.has(code)) return raw;
  const stage: EvalErrorStage = r.endReason === EndReason.plan_error ? "conductor" : "worker";
  return { ...r, correct: null, score: 0, error: { stage, code, message: r.reason } };
}
