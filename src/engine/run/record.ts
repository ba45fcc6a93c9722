import { shownIds } from "../conductor/shown-ids.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import {
  emptyRecord,
  failedAttempt,
  listsOf,
  more,
  rejectedOf,
  retryState,
  stepRecord,
} from "./record-parts.ts";
import { withPlan, withRound, withStep } from "./record-paths.ts";
import { totalsOf } from "./totals.ts";

export { emptyRecord, listsOf, stepRecord } from "./record-parts.ts";

const plus = (total: number | null, ms: number) => (total ?? 0) + Math.max(0, ms);

/** What a step holds before an attempt writes anything: no text, reasoning, pending retry or error. */
const FRESH_ATTEMPT = { output: "", reasoning: undefined, retry: undefined, error: null } as const;

/** Events that stream text: they change no call, so the totals stand. */
const STREAMING: ReadonlySet<RunEvent["type"]> = new Set([
  "plan_delta",
  "plan_reasoning",
  "step_delta",
  "step_reasoning",
]);

/**
 * Folds one run event into the record. Pure: returns a new record and never mutates its input, so
 * the UI can keep the previous one and the recorder can replay a log. The totals are derived from
 * the record after every event that can change its calls (`totalsOf`), so the live tally is the
 * final one at every point. A streamed chunk changes no call: it keeps the totals object itself,
 * so a view of the totals (the run bar) does not redraw for each chunk.
 */
export function applyEvent(r: RunRecord, e: RunEvent): RunRecord {
  const next = fold(r, e);
  return STREAMING.has(e.type) ? next : { ...next, totals: totalsOf(next) };
}

function fold(r: RunRecord, e: RunEvent): RunRecord {
  switch (e.type) {
    case "run_start":
      return {
        ...emptyRecord(e.runId),
        kind: e.kind ?? "planned",
        parentId: e.parentId ?? null,
        kept: e.seed?.kept ?? [],
        createdAt: e.at,
        prompt: e.prompt ?? null,
        question: e.question,
        pool: e.pool,
        conductor: e.conductor ?? null,
        maxSteps: e.maxSteps,
        maxRounds: e.maxRounds,
        status: "planning",
        startedAt: e.at,
        rounds: e.seed?.rounds ?? [],
      };
    case "plan_start":
      return withPlan(e.parent ? r : { ...r, status: "planning" }, e.parent, e.round, (p) => ({
        // An output that did not parse stays on the record when the Conductor is asked again.
        ...rejectedOf(p),
        messages: e.messages,
        // Each attempt's own: a plan that fell back to no grammar sent the whole conversation.
        ...(e.opening !== undefined ? { opening: e.opening } : {}),
        raw: "",
        reasoning: undefined,
        retry: undefined,
        // A start after a plan_retry is the next attempt: the failed ones stay on record.
        ...(p.retry && p.tries ? { tries: p.tries } : {}),
        startedAt: e.at,
        finishedAt: null,
        usage: null,
        cost: null,
        error: null,
      }));
    case "plan_delta":
      return withPlan(r, e.parent, e.round, (p) => ({ ...p, raw: p.raw + e.text }));
    case "plan_reasoning":
      return withPlan(r, e.parent, e.round, (p) => ({
        ...p,
        ...(e.reclassified ? { raw: "" } : {}),
        reasoning: more(p.reasoning, e.text),
      }));
    case "plan_retry":
      return withPlan(r, e.parent, e.round, (p) => ({
        ...p,
        retry: retryState(e),
        tries: [...(p.tries ?? []), failedAttempt(e, p.startedAt)],
      }));
    case "plan_finish": {
      const started = e.parent ? null : planAt(r, e.round);
      const timed = started === null ? r : { ...r, planningMs: plus(r.planningMs, e.at - started) };
      const next = withPlan(timed, e.parent, e.round, (p) => ({
        ...p,
        raw: e.raw,
        reasoning: e.reasoning || p.reasoning,
        retry: undefined,
        finishedAt: e.at,
        usage: e.usage,
        cost: e.cost,
        error: e.error ?? null,
        ...(e.notice ? { notice: e.notice } : {}),
      }));
      if (!e.steps) return next;
      const steps = e.steps;
      return withRound(next, e.parent, e.round, (rd) => ({
        ...rd,
        lists: listsOf(steps, e.workerIds ?? shownIds(r.pool)),
        accepted: e.round > 0 && steps.length === 0,
      }));
    }
    case "round_start":
      return withRound(e.parent ? r : { ...r, status: "running" }, e.parent, e.round, (rd) => ({
        ...rd,
        ...(e.parent ? {} : { startedAt: e.at, finishedAt: null }),
        // A fallback's one step is not a plan the Conductor wrote.
        lists: e.fallback ? null : (rd.lists ?? listsOf(e.steps, shownIds(r.pool))),
        ...(e.fallback ? { fallback: e.fallback } : {}),
        steps: e.steps.map((s, i) => {
          const kept = e.keep?.includes(i) ? rd.steps[i] : undefined;
          return kept ?? stepRecord(r, s, i);
        }),
        answer: null,
      }));
    case "step_queued":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        status: "queued",
        ...FRESH_ATTEMPT,
        usage: null,
        cost: null,
        startedAt: null,
        finishedAt: null,
        attempts: 0,
        tries: undefined,
        attemptStartedAt: undefined,
      }));
    case "step_start":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        status: "running",
        messages: e.messages,
        // A new attempt starts over: the dropped attempt's partial text and reasoning are gone.
        ...FRESH_ATTEMPT,
        startedAt: s.startedAt ?? e.at,
        attempts: e.attempt,
        ...(e.attempt > 1 ? { attemptStartedAt: e.at } : { tries: undefined }),
      }));
    case "step_delta":
      return withStep(r, e.parent, e.round, e.step, (s) => ({ ...s, output: s.output + e.text }));
    case "step_reasoning":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        ...(e.reclassified ? { output: "" } : {}),
        reasoning: more(s.reasoning, e.text),
      }));
    case "step_retry":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        error: { code: e.code, message: e.message },
        retry: retryState(e),
        tries: [...(s.tries ?? []), failedAttempt(e, s.attemptStartedAt ?? s.startedAt)],
      }));
    case "step_finish":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        status: "done",
        output: e.output,
        reasoning: e.reasoning || s.reasoning,
        retry: undefined,
        error: null,
        finishedAt: e.at,
        usage: e.usage,
        cost: e.cost,
        nested: s.nested && { ...s.nested, answer: e.output },
      }));
    case "step_error":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        status: "failed",
        finishedAt: e.at,
        retry: undefined,
        error: { code: e.code, message: e.message },
      }));
    case "step_skip":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        status: "skipped",
        finishedAt: e.at,
        error: { code: e.code, message: e.message },
      }));
    case "step_cancel":
      return withStep(r, e.parent, e.round, e.step, (s) => ({
        ...s,
        status: "cancelled",
        finishedAt: e.at,
        retry: undefined,
      }));
    case "round_finish": {
      const started = e.parent ? null : (r.rounds[e.round]?.startedAt ?? null);
      const timed =
        started === null ? r : { ...r, executionMs: plus(r.executionMs, e.at - started) };
      return withRound(timed, e.parent, e.round, (rd) => ({
        ...rd,
        answer: e.answer,
        ...(e.parent ? {} : { finishedAt: e.at }),
      }));
    }
    case "run_finish":
      return {
        ...r,
        status: e.status,
        endReason: e.reason,
        message: e.message ?? null,
        finishedAt: e.at,
        answer: e.answer,
      };
  }
}

/** When the top-level plan of a round started, if it did. */
function planAt(r: RunRecord, round: number): number | null {
  return r.rounds[round]?.plan?.startedAt ?? null;
}

/** Replays a whole event log into a record. */
export function recordOf(
  events: Iterable<RunEvent>,
  initial: RunRecord = emptyRecord(),
): RunRecord {
  let r = initial;
  for (const e of events) r = applyEvent(r, e);
  return r;
}
