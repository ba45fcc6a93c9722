import { isUnusablePlan } from "../exec/fallback.ts";
import { modelIdOf, shownIds } from "../conductor/ids.ts";
import type { EventOf, RunEvent } from "../schema/events.ts";
import type { ParentPath } from "../schema/events.ts";
import type {
  FailedAttempt,
  NestedRecord,
  PlanRecord,
  RetryState,
  RoundRecord,
  RunRecord,
  StepRecord,
} from "../schema/record.ts";
import type { Step } from "../schema/workflow.ts";
import { totalsOf, ZERO_TOTALS } from "./totals.ts";

/** A record with nothing run yet. */
export function emptyRecord(id = "run"): RunRecord {
  return {
    id,
    kind: "manual",
    parentId: null,
    kept: [],
    createdAt: null,
    planningMs: null,
    executionMs: null,
    prompt: null,
    question: "",
    pool: [],
    conductor: null,
    maxSteps: 5,
    maxRounds: 0,
    status: "draft",
    endReason: null,
    message: null,
    startedAt: null,
    finishedAt: null,
    rounds: [],
    answer: null,
    totals: ZERO_TOTALS,
  };
}

function emptyRound(index: number): RoundRecord {
  return { index, plan: null, lists: null, steps: [], answer: null, accepted: false };
}

/** A step record for a step of the workflow, not run yet. */
export function stepRecord(record: Pick<RunRecord, "pool">, step: Step, index: number): StepRecord {
  return {
    index,
    worker: step.worker,
    workerName: record.pool.find((w) => w.id === step.worker)?.name ?? step.worker,
    subtask: step.subtask,
    access: step.access,
    status: "idle",
    messages: [],
    output: "",
    startedAt: null,
    finishedAt: null,
    attempts: 0,
    usage: null,
    cost: null,
    error: null,
    nested: null,
  };
}

/** A round's lists in the Conductor's numbering of `workerIds` (the pool as its prompt showed it). */
export function listsOf(
  steps: readonly Step[],
  workerIds: readonly string[],
): RoundRecord["lists"] {
  return {
    model_id: steps.map((s) => modelIdOf(workerIds, s.worker)),
    subtasks: steps.map((s) => s.subtask),
    access_list: steps.map((s) => s.access),
    workerIds: [...workerIds],
  };
}

/**
 * Applies `f` to the rounds at `path`: the top level when it is empty, else the nested workflow of
 * the step it names (created on first use). Unknown rounds or steps leave the record unchanged.
 */
function updateRounds(
  rounds: RoundRecord[],
  path: ParentPath,
  f: (rounds: RoundRecord[]) => RoundRecord[],
  depth = 1,
): RoundRecord[] {
  const [head, ...rest] = path;
  if (!head) return f(rounds);
  const round = rounds[head.round];
  const step = round?.steps[head.step];
  if (!round || !step) return rounds;
  const nested: NestedRecord = step.nested ?? {
    depth,
    question: step.messages.findLast((m) => m.role === "user")?.content ?? step.subtask,
    rounds: [],
    answer: null,
  };
  const steps = [...round.steps];
  steps[head.step] = {
    ...step,
    nested: { ...nested, rounds: updateRounds(nested.rounds, rest, f, depth + 1) },
  };
  const copy = [...rounds];
  copy[head.round] = { ...round, steps };
  return copy;
}

function withRound(
  r: RunRecord,
  parent: ParentPath | undefined,
  index: number,
  f: (round: RoundRecord) => RoundRecord,
): RunRecord {
  return {
    ...r,
    rounds: updateRounds(r.rounds, parent ?? [], (rounds) => {
      const copy = [...rounds];
      while (copy.length <= index) copy.push(emptyRound(copy.length));
      copy[index] = f(copy[index]!);
      return copy;
    }),
  };
}

function withStep(
  r: RunRecord,
  parent: ParentPath | undefined,
  round: number,
  step: number,
  f: (s: StepRecord) => StepRecord,
): RunRecord {
  return withRound(r, parent, round, (rd) => {
    const current = rd.steps[step];
    if (!current) return rd; // an event for a step the record never saw: ignore rather than invent
    const steps = [...rd.steps];
    steps[step] = f(current);
    return { ...rd, steps };
  });
}

/** The plan's rejected outputs, with its own if it finished with a parse error. */
function rejectedOf(p: PlanRecord): Pick<PlanRecord, "rejected"> {
  const earlier = p.rejected ?? [];
  const own =
    p.finishedAt !== null && p.error && isUnusablePlan(p.error.code)
      ? [{ raw: p.raw, error: p.error, usage: p.usage, cost: p.cost }]
      : [];
  const all = [...earlier, ...own];
  return all.length > 0 ? { rejected: all } : {};
}

function withPlan(
  r: RunRecord,
  parent: ParentPath | undefined,
  round: number,
  f: (p: PlanRecord) => PlanRecord,
): RunRecord {
  return withRound(r, parent, round, (rd) => ({
    ...rd,
    plan: f(
      rd.plan ?? {
        messages: [],
        raw: "",
        startedAt: null,
        finishedAt: null,
        usage: null,
        cost: null,
        error: null,
      },
    ),
  }));
}

/** Appends streamed reasoning; an empty record keeps no `reasoning` field at all. */
function more(reasoning: string | undefined, text: string): string | undefined {
  return (reasoning ?? "") + text || undefined;
}

function retryState(e: EventOf<"step_retry"> | EventOf<"plan_retry">): RetryState {
  return {
    attempt: e.attempt,
    of: e.of ?? null,
    at: e.at,
    delayMs: e.delayMs,
    code: e.code,
    status: e.status ?? null,
    message: e.message,
  };
}

/** The attempt a retry ends: it started at `startedAt` and failed when the retry was scheduled. */
function failedAttempt(
  e: EventOf<"step_retry"> | EventOf<"plan_retry">,
  startedAt: number | null,
): FailedAttempt {
  return {
    attempt: e.attempt - 1,
    startedAt,
    finishedAt: e.at,
    code: e.code,
    status: e.status ?? null,
    message: e.message,
  };
}

const plus = (total: number | null, ms: number) => (total ?? 0) + Math.max(0, ms);

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
 * final one at every point.
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
        output: "",
        reasoning: undefined,
        retry: undefined,
        error: null,
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
        output: "",
        reasoning: undefined,
        retry: undefined,
        error: null,
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
