import { formatLists } from "../conductor/format.ts";
import { numberedSteps, shownIds } from "../conductor/ids.ts";
import { buildConductorMessages } from "../conductor/prompt.ts";
import { buildRefinementConversation } from "../conductor/refine.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { Seed } from "../run/continue.ts";
import type { Focus } from "../run/focus.ts";
import { priorOf } from "../run/focus.ts";
import { finishFor, runNestedInPlace } from "./in-place.ts";
import type { EventOf, RunEvent } from "../schema/events.ts";
import type { RunKind, RunRecord } from "../schema/record.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { ConductorConfig, Pool, Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS } from "../constants.ts";
import type { StepOutcome, WorkflowOutcome } from "./execute.ts";
import { CallBudget, executeWorkflow } from "./execute.ts";
import type { PriorStep } from "./messages.ts";
import type { NestedContext } from "./nested.ts";
import { nestedRunner } from "./nested.ts";
import type { FallbackPolicy } from "./fallback.ts";
import { fallbackFor, planWithReplans } from "./fallback.ts";
import type { RetryPolicy } from "./retry.ts";
import { newId } from "../ids.ts";

export interface PromptSettings {
  template?: string;
  systemPrompt?: string;
  opening?: string;
  /** Named worker lines with notes (a prompted general model) or anonymous `Model id i` (trained). */
  namedWorkers?: boolean;
}

/** Where a run starts. */
export type RunStart =
  /** Ask the Conductor for the top-level round `round` (0 unless resuming); `planOnly` stops there. */
  | { from: "plan"; round?: number; planOnly?: boolean }
  /** Run the top-level round `round` with these steps (`raw`: what the Conductor wrote for them). */
  | {
      from: "round";
      round: number;
      steps: Step[];
      keep?: ReadonlyMap<number, string>;
      raw?: string;
      previousRound?: PriorStep[];
    }
  /** Re-run a nested workflow of `base` in place with these steps. */
  | { from: "nested"; focus: Focus; steps: Step[]; keep?: ReadonlyMap<number, string> };

export interface RunnerOptions {
  question: string;
  pool: Pool;
  backendFor: (worker: Worker) => ChatBackend;
  signal: AbortSignal;
  start: RunStart;
  conductor?: ConductorConfig;
  /** Plans, refinement rounds and self-selected steps need it. */
  conductorBackend?: ChatBackend;
  maxSteps?: number;
  /** Extra refinement rounds after the first (SPEC 1.6); 0 runs a single round. */
  maxRounds?: number;
  /** Whether refinement rounds follow the round that runs (default: when a Conductor is given). */
  refine?: boolean;
  /** Cap on model calls in the whole run, Conductor calls included. */
  maxCalls?: number;
  /** Levels of self-selection; 0 runs a step given to the Conductor as a plain call. */
  maxDepth?: number;
  /** Whether steps given to the Conductor plan and run nested workflows (default: true). */
  selfSelect?: boolean;
  prompt?: PromptSettings;
  retry?: Partial<RetryPolicy>;
  now?: () => number;
  /** Who the run is: its id, kind and the run it continues. */
  run?: { id?: string; kind?: RunKind; parentId?: string | null };
  /** The record this run continues: the source of earlier rounds and of a nested workflow. */
  base?: RunRecord;
  /** What the new run carries over from `base` (see `seedFrom`). */
  seed?: Seed;
  /**
   * The events continue the caller's record as the same run (a planned run that now runs): no
   * run_start is emitted.
   */
  append?: boolean;
  /** Asking the Conductor again, then a worker alone, when round 0 cannot be planned. */
  fallback?: FallbackPolicy;
}

/** How a run ended: its finish event, and the outcome of the last workflow that ran. */
export interface RunEnd {
  finish: EventOf<"run_finish">;
  lastRound: WorkflowOutcome | null;
}

/** A run id that sorts by start time and is unique enough to tell exports apart. */
export function newRunId(now: number = Date.now()): string {
  return newId("run", now);
}

export type Finish = EventOf<"run_finish">;

function priorSteps(steps: Step[], outcomes: StepOutcome[]): PriorStep[] {
  return steps.map((s, i) => {
    const o = outcomes[i];
    return { worker: s.worker, subtask: s.subtask, output: o?.status === "done" ? o.output : "" };
  });
}

/** Serves a worker that is the Conductor itself (past the depth cap) with the Conductor's backend. */
function withSelf(backendFor: (w: Worker) => ChatBackend, conductor: ChatBackend | undefined) {
  return (w: Worker): ChatBackend =>
    w.kind === "conductor" && conductor ? conductor : backendFor(w);
}

/**
 * The one runner. Planning, running, re-running from a step, retrying, resuming, refinement
 * rounds and re-running an edited round or nested workflow all go through it: it emits the
 * run's start (unless it continues the caller's run), the events of every plan and workflow,
 * and always ends with exactly one run_finish. Never throws on model failures.
 */
export async function* runRun(o: RunnerOptions): AsyncGenerator<RunEvent, RunEnd> {
  const now = o.now ?? Date.now;
  const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
  const maxRounds = o.maxRounds ?? 0;
  // The budget is the run's: a planned run that now runs (append) already made its plan's calls.
  const budget = new CallBudget(o.maxCalls ?? Infinity, o.append ? (o.base?.totals.calls ?? 0) : 0);
  const backendFor = withSelf(o.backendFor, o.conductorBackend);
  const nestedCtx: NestedContext | undefined =
    o.conductor && o.conductorBackend && o.selfSelect !== false
      ? {
          pool: o.pool,
          conductor: o.conductor,
          conductorBackend: o.conductorBackend,
          backendFor,
          maxSteps,
          maxDepth: o.maxDepth ?? DEFAULT_MAX_DEPTH,
          prompt: o.prompt,
          retry: o.retry,
          budget,
          now,
        }
      : undefined;
  let lastRound: WorkflowOutcome | null = null;
  const end = (finish: Finish): RunEnd => ({ finish, lastRound });

  if (!o.append)
    yield {
      type: "run_start",
      at: now(),
      runId: o.run?.id ?? newRunId(now()),
      question: o.question,
      pool: o.pool,
      ...(o.conductor ? { conductor: o.conductor } : {}),
      maxSteps,
      maxRounds,
      kind: o.run?.kind ?? (o.start.from === "plan" ? "planned" : "manual"),
      parentId: o.run?.parentId ?? null,
      prompt: o.conductor
        ? { template: o.prompt?.template ?? "", namedWorkers: o.prompt?.namedWorkers ?? false }
        : null,
      ...(o.seed ? { seed: o.seed } : {}),
    };

  const start = o.start;
  if (start.from === "nested") {
    const finish = yield* runNestedInPlace(o, start, budget, backendFor, nestedCtx, now);
    lastRound = finish.lastRound;
    yield finish.finish;
    return finish;
  }

  const refine = (o.refine ?? !!o.conductorBackend) && !!o.conductorBackend && !!o.conductor;
  let round = start.round ?? 0;
  const continuesAssistant = o.conductorBackend?.continuesAssistant ?? false;
  // The Conductor's conversation up to the round that runs: its plan's own messages where the
  // base recorded them, else the first round's prompt (refinement turns are added as rounds end).
  let messages: ChatMessage[] =
    o.base?.rounds[round]?.plan?.messages ??
    buildConductorMessages({
      question: o.question,
      pool: o.pool,
      maxSteps,
      namedWorkers: o.prompt?.namedWorkers ?? false,
      continuesAssistant,
      template: o.prompt?.template,
      systemPrompt: o.prompt?.systemPrompt,
      opening: o.prompt?.opening,
    });
  let answer: string | null = round > 0 ? (o.base?.rounds[round - 1]?.answer ?? null) : null;
  let previous: PriorStep[] | undefined =
    start.from === "round" && start.previousRound
      ? start.previousRound
      : round > 0
        ? priorOf(o.base?.rounds[round - 1])
        : undefined;
  if (start.from === "plan" && round > 0 && o.base) {
    // Resuming at a refinement round's plan: the conversation continues after the round before.
    const before = o.base.rounds[round - 1];
    const raw = before?.plan?.raw || formatLists(numberedSteps(stepsOf(before), shownIds(o.pool)));
    messages = buildRefinementConversation(
      before?.plan?.messages ?? messages,
      raw,
      answer ?? "",
      round,
      { continuesAssistant, opening: o.prompt?.opening },
    );
  }
  let given = start.from === "round" ? start : null;
  for (; round <= Math.max(maxRounds, start.round ?? 0); round++) {
    let steps: Step[];
    let raw: string;
    let keep: ReadonlyMap<number, string> | undefined;
    let fallback: ReturnType<typeof fallbackFor>;
    if (given) {
      ({ steps, raw = formatLists(numberedSteps(given.steps, shownIds(o.pool))), keep } = given);
      given = null;
    } else {
      if (!o.conductorBackend || !o.conductor)
        return yield* finishWith(end, {
          type: "run_finish",
          at: now(),
          status: "failed",
          reason: "plan_error",
          answer,
          message: "Planning needs the Conductor.",
        });
      const plan = yield* planWithReplans(
        {
          backend: o.conductorBackend,
          conductor: o.conductor,
          messages,
          workerIds: shownIds(o.pool),
          maxSteps,
          round,
          signal: o.signal,
          retry: o.retry,
          budget,
          now,
        },
        o.fallback?.replans ?? 0,
      );
      // Planning alone falls back too: with no plan to show, the named worker answers, and the
      // run goes on to execute its one step (the studio's Plan button, like eval and serve).
      fallback = !plan.ok && round === 0 ? fallbackFor(o.fallback, o.pool, plan) : undefined;
      if (!plan.ok && !fallback) {
        const at = now();
        return yield* finishWith(
          end,
          plan.cancelled
            ? { type: "run_finish", at, status: "cancelled", reason: "cancelled", answer }
            : plan.code === "budget"
              ? {
                  type: "run_finish",
                  at,
                  status: round > 0 ? "done" : "failed",
                  reason: "budget",
                  answer,
                  message: plan.message,
                }
              : {
                  type: "run_finish",
                  at,
                  status: "failed",
                  reason: "plan_error",
                  answer,
                  message: plan.message,
                },
        );
      }
      const planned = plan.ok ? plan.steps : (fallback?.steps ?? []);
      if (round > 0 && planned.length === 0)
        return yield* finishWith(end, {
          type: "run_finish",
          at: now(),
          status: "done",
          reason: "accepted",
          answer,
        });
      if (start.from === "plan" && start.planOnly && !fallback)
        return yield* finishWith(end, {
          type: "run_finish",
          at: now(),
          status: "planned",
          reason: "planned",
          answer: null,
        });
      raw = plan.raw;
      steps = planned;
    }
    const keptIdx = keep ? [...keep.keys()].sort((a, b) => a - b) : undefined;
    yield {
      type: "round_start",
      at: now(),
      round,
      steps,
      ...(keptIdx ? { keep: keptIdx } : {}),
      ...(fallback ? { fallback: fallback.fallback } : {}),
    };
    const outcome = yield* executeWorkflow({
      question: o.question,
      steps,
      pool: o.pool,
      backendFor,
      nested: nestedCtx && nestedRunner(nestedCtx, 1),
      selfPrice: o.conductor?.price,
      signal: o.signal,
      round,
      previousRound: previous,
      keep,
      retry: o.retry,
      budget,
      now,
    });
    lastRound = outcome;
    yield { type: "round_finish", at: now(), round, answer: outcome.answer };
    if (outcome.status !== "done") return yield* finishWith(end, finishFor(outcome, now(), answer));
    answer = outcome.answer;
    previous = priorSteps(steps, outcome.outcomes);
    // A fallback answer ends the run: the Conductor that would refine it could not plan.
    if (!refine || round >= maxRounds || fallback) break;
    messages = buildRefinementConversation(messages, raw, answer ?? "", round + 1, {
      continuesAssistant,
      opening: o.prompt?.opening,
    });
  }
  return yield* finishWith(end, {
    type: "run_finish",
    at: now(),
    status: "done",
    reason: refine && maxRounds > 0 ? "round_cap" : "no_rounds",
    answer,
  });
}

/** The one way a run ends: its run_finish is the last event. */
function* finishWith(end: (f: Finish) => RunEnd, finish: Finish): Generator<RunEvent, RunEnd> {
  yield finish;
  return end(finish);
}

function stepsOf(round: RunRecord["rounds"][number] | undefined): Step[] {
  return (round?.steps ?? []).map((s) => ({
    worker: s.worker,
    subtask: s.subtask,
    access: s.access,
  }));
}
