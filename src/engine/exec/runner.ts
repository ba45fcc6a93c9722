import { EndReason, ErrorCode } from "../errors.ts";
import { formatLists } from "../conductor/format.ts";
import { numberedSteps, shownIds } from "../conductor/shown-ids.ts";
import { buildRefinementConversation } from "../conductor/refine.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Worker } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS } from "../constants.ts";
import type { Finish } from "./ending.ts";
import { finish, finishFor } from "./ending.ts";
import type { WorkflowOutcome } from "./execute.ts";
import { CallBudget, executeWorkflow } from "./execute.ts";
import { fallbackFor, planWithReplans } from "./fallback.ts";
import { runNestedInPlace } from "./in-place.ts";
import type { NestedContext } from "./nested.ts";
import { nestedRunner } from "./nested.ts";
import type { RoundFallback, RunEnd, RunnerOptions } from "./runner-options.ts";
import { priorSteps, roundsStart, startEvent } from "./run-start.ts";

export type { Finish } from "./ending.ts";
export type { PromptSettings, RunEnd, RunnerOptions, RunStart } from "./runner-options.ts";
export { newRunId } from "./run-start.ts";

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

  if (!o.append) yield startEvent(o, { maxSteps, maxRounds }, now());

  const start = o.start;
  // Every start is named: one the type does not know is the caller's bug, never a plan.
  switch (start.from) {
    case "refused":
      return yield* finishWith(
        end,
        finish("setup_error", { at: now(), answer: null, message: start.message }),
      );
    case "nested": {
      const finish = yield* runNestedInPlace(o, start, budget, backendFor, nestedCtx, now);
      lastRound = finish.lastRound;
      yield finish.finish;
      return finish;
    }
    case "plan":
    case "round":
      break; // the rounds below
    default: {
      const unknown: never = start;
      throw new Error(`runRun: unknown start ${JSON.stringify(unknown)}`);
    }
  }

  const refine = (o.refine ?? !!o.conductorBackend) && !!o.conductorBackend && !!o.conductor;
  let round = start.round ?? 0;
  const continuesAssistant = o.conductorBackend?.continuesAssistant ?? false;
  let { messages, answer, previous } = roundsStart(
    o,
    round,
    maxSteps,
    start.from === "round" ? start.previousRound : undefined,
  );
  let given = start.from === "round" ? start : null;
  for (; round <= Math.max(maxRounds, start.round ?? 0); round++) {
    let steps: Step[];
    let raw: string;
    let keep: ReadonlyMap<number, string> | undefined;
    let fallback: { steps: Step[]; fallback: RoundFallback } | undefined;
    if (given) {
      ({ steps, raw = formatLists(numberedSteps(given.steps, shownIds(o.pool))), keep } = given);
      fallback = given.fallback && { steps, fallback: given.fallback };
      given = null;
    } else {
      if (!o.conductorBackend || !o.conductor)
        return yield* finishWith(end, finish("no_conductor", { at: now(), answer }));
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
            ? finish("cancelled", { at, answer })
            : finish(plan.code === ErrorCode.budget ? EndReason.budget : EndReason.plan_error, {
                at,
                answer,
                message: plan.message,
              }),
        );
      }
      const planned = plan.ok ? plan.steps : (fallback?.steps ?? []);
      if (round > 0 && planned.length === 0)
        return yield* finishWith(end, finish("accepted", { at: now(), answer }));
      if (start.from === "plan" && start.planOnly && !fallback)
        return yield* finishWith(end, finish("planned", { at: now(), answer: null }));
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
  return yield* finishWith(
    end,
    finish(refine && maxRounds > 0 ? "round_cap" : "no_rounds", { at: now(), answer }),
  );
}

/** The one way a run ends: its run_finish is the last event. */
function* finishWith(end: (f: Finish) => RunEnd, finish: Finish): Generator<RunEvent, RunEnd> {
  yield finish;
  return end(finish);
}
