import { findWorker } from "../conductor/shown-ids.ts";
import { diffWords, diffWordsWithSpace } from "diff";
import type { RunRecord, StepRecord, Totals } from "../schema/record.ts";
import { wholeTotalsOf } from "./totals.ts";

/** A piece of a diff: text that both have, or only the left (removed) or right (added) one. */
export interface DiffPart {
  text: string;
  op: "same" | "removed" | "added";
}

function parts(changes: { value: string; added?: boolean; removed?: boolean }[]): DiffPart[] {
  return changes.map((c) => ({
    text: c.value,
    op: c.added ? "added" : c.removed ? "removed" : "same",
  }));
}

/** A word diff (subtasks). */
export function wordDiff(a: string, b: string): DiffPart[] {
  return parts(diffWords(a, b));
}

/** A text diff that keeps whitespace and line breaks (outputs). */
export function textDiff(a: string, b: string): DiffPart[] {
  return parts(diffWordsWithSpace(a, b));
}

export interface StepSide {
  worker: string;
  subtask: string;
  access: string;
  status: string;
  output: string;
  tokens: number | null;
  /** Null when the step made no call, or its call had no price (its cost is unknown, not $0). */
  cost: number | null;
  unpriced: boolean;
  latencyMs: number | null;
}

/**
 * One side's totals. `whole` counts every call that stands in its record, the parts kept from the
 * run it continued included; `own` only the calls this run made (its record's totals). The
 * difference is taken between the two `whole` totals: a resumed run's own calls against a whole
 * run would compare a part with a whole.
 */
export interface CompareTotals {
  whole: Totals;
  own: Totals;
  /** How many plans and steps it kept from the run it continued (0 for a fresh run). */
  keptParts: number;
  planningMs: number | null;
  executionMs: number | null;
}

/** Right minus left of the whole totals; the cost is null (unknown) when either side has an unpriced call. */
export interface TotalsDifference {
  tokens: number;
  cost: number | null;
}

/** One row of a comparison: the same step (by round and position) in both runs. */
export interface CompareRow {
  round: number;
  index: number;
  left: StepSide | null;
  right: StepSide | null;
  subtaskDiff: DiffPart[];
  outputDiff: DiffPart[];
  same: { worker: boolean; subtask: boolean; access: boolean; output: boolean };
}

export interface Comparison {
  rows: CompareRow[];
  answers: { left: string | null; right: string | null; diff: DiffPart[] };
  totals: { left: CompareTotals; right: CompareTotals; difference: TotalsDifference };
}

function sideTotals(r: RunRecord): CompareTotals {
  return {
    whole: wholeTotalsOf(r),
    own: r.totals,
    keptParts: r.kept.length,
    planningMs: r.planningMs,
    executionMs: r.executionMs,
  };
}

const tokensOf = (t: Totals) => t.promptTokens + t.completionTokens;

function difference(left: Totals, right: Totals): TotalsDifference {
  const unknown = (left.unpricedCalls ?? 0) + (right.unpricedCalls ?? 0) > 0;
  return {
    tokens: tokensOf(right) - tokensOf(left),
    cost: unknown ? null : right.cost - left.cost,
  };
}

const accessText = (a: StepRecord["access"]) =>
  a === "all" ? "all" : a.length ? a.map((i) => i + 1).join(", ") : "none";

function side(s: StepRecord | undefined, pool: RunRecord["pool"]): StepSide | null {
  if (!s) return null;
  return {
    worker: findWorker(pool, s.worker)?.name ?? s.workerName,
    subtask: s.subtask,
    access: accessText(s.access),
    status: s.status,
    output: s.output,
    tokens: s.usage ? s.usage.promptTokens + s.usage.completionTokens : null,
    cost: s.usage?.unpriced ? null : s.cost,
    unpriced: s.usage?.unpriced === true,
    latencyMs: s.startedAt !== null && s.finishedAt !== null ? s.finishedAt - s.startedAt : null,
  };
}

/**
 * Two runs side by side: per top-level round and step, the worker, subtask (word diff), access,
 * status, output (text diff), tokens, cost and latency; the two answers; the totals.
 */
export function compareRuns(a: RunRecord, b: RunRecord): Comparison {
  const rows: CompareRow[] = [];
  const rounds = Math.max(a.rounds.length, b.rounds.length);
  for (let r = 0; r < rounds; r++) {
    const sa = a.rounds[r]?.steps ?? [];
    const sb = b.rounds[r]?.steps ?? [];
    for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
      const left = side(sa[i], a.pool);
      const right = side(sb[i], b.pool);
      rows.push({
        round: r,
        index: i,
        left,
        right,
        subtaskDiff: wordDiff(left?.subtask ?? "", right?.subtask ?? ""),
        outputDiff: textDiff(left?.output ?? "", right?.output ?? ""),
        same: {
          worker: left?.worker === right?.worker,
          subtask: left?.subtask === right?.subtask,
          access: left?.access === right?.access,
          output: left?.output === right?.output,
        },
      });
    }
  }
  const left = sideTotals(a);
  const right = sideTotals(b);
  return {
    rows,
    answers: { left: a.answer, right: b.answer, diff: textDiff(a.answer ?? "", b.answer ?? "") },
    totals: { left, right, difference: difference(left.whole, right.whole) },
  };
}
