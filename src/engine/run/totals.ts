import type { ParentPath } from "../schema/events.ts";
import type { KeptRef, RoundRecord, RunRecord, Totals } from "../schema/record.ts";
import type { Usage } from "../schema/usage.ts";

export const ZERO_TOTALS: Totals = {
  promptTokens: 0,
  completionTokens: 0,
  cost: 0,
  estimated: false,
  calls: 0,
};

/** A kept part's key: the path, the round, and the step (or "p" for the round's plan). */
export function keptKey(parent: ParentPath, round: number, step: number | null): string {
  const path = parent.map((p) => `${p.round}.${p.step}`).join("/");
  return `${path}|${round}|${step ?? "p"}`;
}

/** Adds one call's usage to totals; `reasoningTokens`, `cachedCalls` and `savedCost` appear once some call has any. */
export function addCall(t: Totals, usage: Usage, cost: number): Totals {
  const reasoning = (t.reasoningTokens ?? 0) + (usage.reasoningTokens ?? 0);
  const cached = (t.cachedCalls ?? 0) + (usage.cached ? 1 : 0);
  const saved = (t.savedCost ?? 0) + (usage.cached ? (usage.savedCost ?? 0) : 0);
  const unpriced = (t.unpricedCalls ?? 0) + (usage.unpriced ? 1 : 0);
  return {
    promptTokens: t.promptTokens + usage.promptTokens,
    completionTokens: t.completionTokens + usage.completionTokens,
    cost: t.cost + cost,
    estimated: t.estimated || usage.estimated,
    calls: t.calls + 1,
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
    ...(cached > 0 ? { cachedCalls: cached } : {}),
    ...(saved > 0 ? { savedCost: saved } : {}),
    ...(unpriced > 0 ? { unpricedCalls: unpriced } : {}),
  };
}

/** One model call a record holds: a Conductor plan (or an output it was asked to redo) or a step. */
export interface RecordedCall {
  kind: "plan" | "rejected" | "step";
  parent: ParentPath;
  round: number;
  /** The step's index; null for a plan. */
  step: number | null;
  usage: Usage;
  cost: number;
  /** Kept from the run's parent: an earlier run made it. */
  kept: boolean;
  /** Whether it stands as made: a plan that finished, a step that is done (not failed or cancelled). */
  finished: boolean;
}

/**
 * Every call in `rounds`, nested workflows included, in record order. A self-selected step is not a
 * call of its own: its usage is the sum of its nested calls, which are walked instead. This is the
 * one walk every total filters.
 */
export function* callsOf(
  rounds: readonly RoundRecord[],
  kept: ReadonlySet<string> = new Set(),
  parent: ParentPath = [],
): Generator<RecordedCall> {
  for (const round of rounds) {
    const at = { parent, round: round.index };
    const plan = round.plan;
    if (plan) {
      const planKept = kept.has(keptKey(parent, round.index, null));
      /** A call of the Conductor's for this round: the plan, or an output it was asked to redo. */
      const conductorCall = (
        kind: "plan" | "rejected",
        usage: Usage,
        cost: number | null | undefined,
        finished: boolean,
      ): RecordedCall => ({
        ...at,
        kind,
        step: null,
        usage,
        cost: cost ?? 0,
        kept: planKept,
        finished,
      });
      for (const r of plan.rejected ?? [])
        if (r.usage) yield conductorCall("rejected", r.usage, r.cost, true);
      if (plan.usage) yield conductorCall("plan", plan.usage, plan.cost, plan.finishedAt !== null);
    }
    for (const step of round.steps) {
      if (step.nested) {
        yield* callsOf(step.nested.rounds, kept, [
          ...parent,
          { round: round.index, step: step.index },
        ]);
      } else if (step.usage) {
        yield {
          ...at,
          kind: "step",
          step: step.index,
          usage: step.usage,
          cost: step.cost ?? 0,
          kept: kept.has(keptKey(parent, round.index, step.index)),
          finished: step.status === "done",
        };
      }
    }
  }
}

/** The totals of some calls. */
function tally(calls: Iterable<RecordedCall>): Totals {
  let t = ZERO_TOTALS;
  for (const c of calls) t = addCall(t, c.usage, c.cost);
  return t;
}

function* where<T>(xs: Iterable<T>, keep: (x: T) => boolean): Generator<T> {
  for (const x of xs) if (keep(x)) yield x;
}

/** The run's own calls that stand: finished, and not kept from its parent. */
function ownCalls(record: Pick<RunRecord, "rounds" | "kept">): Generator<RecordedCall> {
  const kept = new Set(record.kept.map((k: KeptRef) => keptKey(k.parent, k.round, k.step)));
  return where(callsOf(record.rounds, kept), (c) => c.finished && !c.kept);
}

/**
 * A run's totals from its record alone: every finished Conductor plan and worker call it made,
 * nested calls included, the parts it kept from its parent left out. The recorder keeps
 * `record.totals` equal to this after every event.
 */
export function totalsOf(record: Pick<RunRecord, "rounds" | "kept">): Totals {
  return tally(ownCalls(record));
}

/**
 * A run's whole totals: every finished call its record holds, the parts kept from its parent
 * included. A continued (resumed, re-run) run's own totals leave those out; these count what its
 * answer cost in all, so that a fresh run and a continued one compare like with like.
 */
export function wholeTotalsOf(record: Pick<RunRecord, "rounds">): Totals {
  return tally(where(callsOf(record.rounds), (c) => c.finished));
}

/**
 * Tokens and cost of a round as drawn on its group: every call it holds, whether its step failed
 * afterwards or was kept from the parent run, since the group shows all of them.
 */
export function roundSums(round: RoundRecord): {
  tokens: number;
  cost: number;
  calls: number;
  unpricedCalls: number;
  estimated: boolean;
} {
  const t = tally(callsOf([round]));
  return {
    tokens: t.promptTokens + t.completionTokens,
    cost: t.cost,
    calls: t.calls,
    unpricedCalls: t.unpricedCalls ?? 0,
    estimated: t.estimated,
  };
}

/**
 * The part of a run's cost its Conductor calls made (every plan, refinement and nested plan it
 * counts in `totalsOf`), so the totals can say how much of the cost is planning.
 */
export function planningCostOf(record: Pick<RunRecord, "rounds" | "kept">): number {
  return tally(where(ownCalls(record), (c) => c.kind !== "step")).cost;
}

/** The usage of a self-selected step: the sum of the nested calls it made (`aggregate`). */
export function usageOf(t: Totals): Usage {
  return {
    promptTokens: t.promptTokens,
    completionTokens: t.completionTokens,
    estimated: t.estimated,
    ...(t.reasoningTokens ? { reasoningTokens: t.reasoningTokens } : {}),
  };
}
