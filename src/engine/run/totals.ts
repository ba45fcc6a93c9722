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
  return {
    promptTokens: t.promptTokens + usage.promptTokens,
    completionTokens: t.completionTokens + usage.completionTokens,
    cost: t.cost + cost,
    estimated: t.estimated || usage.estimated,
    calls: t.calls + 1,
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
    ...(cached > 0 ? { cachedCalls: cached } : {}),
    ...(saved > 0 ? { savedCost: saved } : {}),
  };
}

function sumRounds(
  rounds: readonly RoundRecord[],
  parent: ParentPath,
  kept: ReadonlySet<string>,
  t: Totals,
): Totals {
  let out = t;
  for (const round of rounds) {
    const plan = round.plan;
    if (plan?.usage && plan.finishedAt !== null && !kept.has(keptKey(parent, round.index, null))) {
      for (const r of plan.rejected ?? []) if (r.usage) out = addCall(out, r.usage, r.cost ?? 0);
      out = addCall(out, plan.usage, plan.cost ?? 0);
    }
    for (const step of round.steps) {
      if (step.nested) {
        // A self-selected step's usage is the sum of its nested calls: count those, not it.
        const path = [...parent, { round: round.index, step: step.index }];
        out = sumRounds(step.nested.rounds, path, kept, out);
      } else if (
        step.status === "done" &&
        step.usage &&
        !kept.has(keptKey(parent, round.index, step.index))
      ) {
        out = addCall(out, step.usage, step.cost ?? 0);
      }
    }
  }
  return out;
}

/**
 * A run's totals from its record alone: every finished Conductor plan and worker call it made,
 * nested calls included, the parts it kept from its parent left out.
 */
export function totalsOf(record: Pick<RunRecord, "rounds" | "kept">): Totals {
  const kept = new Set(record.kept.map((k: KeptRef) => keptKey(k.parent, k.round, k.step)));
  return sumRounds(record.rounds, [], kept, ZERO_TOTALS);
}

/** Tokens and cost of a round as drawn on its group: its plan and every step. */
export function roundSums(round: RoundRecord) {
  let tokens = (round.plan?.usage?.promptTokens ?? 0) + (round.plan?.usage?.completionTokens ?? 0);
  for (const r of round.plan?.rejected ?? [])
    tokens += (r.usage?.promptTokens ?? 0) + (r.usage?.completionTokens ?? 0);
  let cost = (round.plan?.cost ?? 0) + (round.plan ? rejectedCost(round.plan) : 0);
  let estimated = round.plan?.usage?.estimated ?? false;
  for (const s of round.steps) {
    tokens += (s.usage?.promptTokens ?? 0) + (s.usage?.completionTokens ?? 0);
    cost += s.cost ?? 0;
    estimated ||= s.usage?.estimated ?? false;
  }
  return { tokens, cost, estimated };
}

/** What the outputs the Conductor was asked to redo cost. */
function rejectedCost(plan: NonNullable<RoundRecord["plan"]>): number {
  return (plan.rejected ?? []).reduce((c, r) => c + (r.cost ?? 0), 0);
}

function sumPlans(
  rounds: readonly RoundRecord[],
  parent: ParentPath,
  kept: ReadonlySet<string>,
): number {
  let cost = 0;
  for (const round of rounds) {
    const plan = round.plan;
    if (plan?.usage && plan.finishedAt !== null && !kept.has(keptKey(parent, round.index, null)))
      cost += (plan.cost ?? 0) + rejectedCost(plan);
    for (const step of round.steps)
      if (step.nested)
        cost += sumPlans(
          step.nested.rounds,
          [...parent, { round: round.index, step: step.index }],
          kept,
        );
  }
  return cost;
}

/**
 * The part of a run's cost its Conductor calls made (every plan, refinement and nested plan it
 * counts in `totalsOf`), so the totals can say how much of the cost is planning.
 */
export function planningCostOf(record: Pick<RunRecord, "rounds" | "kept">): number {
  const kept = new Set(record.kept.map((k: KeptRef) => keptKey(k.parent, k.round, k.step)));
  return sumPlans(record.rounds, [], kept);
}
