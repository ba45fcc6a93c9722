import { csvCell } from "../csv.ts";
import { VERDICT_TEXT } from "./code/verdict.ts";
import type { CodeResult } from "./scorers/code-result.ts";
import type { EvalResult } from "./schema.ts";
import { verdictOf } from "./outcome.ts";
import { latestResults } from "./schema.ts";
import type { BootstrapSettings, Interval } from "./stats/bootstrap.ts";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, bootstrapMeanInterval } from "./stats/bootstrap.ts";
import { majorityCorrect, passAtK } from "./stats/exact.ts";

export interface StrategySummary {
  strategy: string;
  /** Samples: (question, repeat) results recorded, errored ones included. */
  samples: number;
  /** Questions with at least one sample that did not error. */
  questions: number;
  /** Samples with a verdict, without one (a failed judge, no reference), and errored. */
  scored: number;
  unscored: number;
  errors: number;
  /** Mean of per-question accuracy (repeats averaged first), with its standard error. */
  accuracy: number | null;
  stderr: number | null;
  /** The bootstrap interval of accuracy: over questions, repeats resampled within each. */
  accuracyCi: Interval | null;
  /** Multiple choice: accuracy under the strict rule, beside the lenient one. */
  strictAccuracy: number | null;
  /** The repeats asked for; pass@k and maj@k with that k (null with one repeat). */
  k: number;
  passAtK: number | null;
  majAtK: number | null;
  planFailures: number;
  /** Runs a named worker answered alone because the Conductor could not plan. */
  fallbacks: number;
  failedRuns: number;
  /** Calls answered from the response cache (at no cost), and what they would have cost. */
  cachedCalls: number;
  savedCost: number;
  /** Calls (of samples that did not error) with no known price: the cost figures are then not known. */
  unpricedCalls: number;
  /** Per sample that did not error (errored samples say nothing about a strategy's cost). */
  tokensPerQuestion: number;
  costPerQuestion: number;
  costCi: Interval | null;
  callsPerQuestion: number;
  latencyP50: number | null;
  latencyP95: number | null;
  /** Not beaten on both accuracy and cost by another strategy. */
  pareto: boolean;
}

/** The nearest-rank percentile of a list (p in 0..100). */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** Mean and standard error (sample standard deviation over sqrt n); s.e. is null for n < 2. */
export function meanAndStderr(xs: readonly number[]): {
  mean: number | null;
  stderr: number | null;
} {
  const n = xs.length;
  if (n === 0) return { mean: null, stderr: null };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, stderr: null };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  return { mean, stderr: Math.sqrt(variance / n) };
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Each question's values, in order of first appearance; null and undefined values are left out. */
export function groupByQuestion<T>(
  rs: readonly EvalResult[],
  pick: (r: EvalResult) => T | null | undefined,
): Map<string, T[]> {
  const by = new Map<string, T[]>();
  for (const r of rs) {
    const v = pick(r);
    if (v === null || v === undefined) continue;
    const list = by.get(r.item);
    if (list) list.push(v);
    else by.set(r.item, [v]);
  }
  return by;
}

const bit = (b: boolean | null | undefined) => (b === null || b === undefined ? null : b ? 1 : 0);

/** Marks the strategies no other strategy dominates (as accurate or more, as cheap or cheaper, one strictly). */
export function markPareto<T extends { accuracy: number | null; costPerQuestion: number }>(
  rows: T[],
): boolean[] {
  return rows.map((a) => {
    if (a.accuracy === null) return false;
    return !rows.some(
      (b) =>
        b !== a &&
        b.accuracy !== null &&
        b.accuracy >= a.accuracy! &&
        b.costPerQuestion <= a.costPerQuestion &&
        (b.accuracy > a.accuracy! || b.costPerQuestion < a.costPerQuestion),
    );
  });
}

/** How a report's intervals are drawn and which k pass@k uses; the seed is recorded with it. */
export interface SummaryOptions {
  bootstrap?: Partial<BootstrapSettings>;
  /** The evaluation's repeats: pass@k and maj@k use k = repeats when it is 2 or more. */
  repeats?: number;
}

export function bootstrapSettings(o: SummaryOptions = {}): BootstrapSettings {
  return {
    seed: o.bootstrap?.seed ?? 0,
    resamples: o.bootstrap?.resamples ?? DEFAULT_RESAMPLES,
    level: o.bootstrap?.level ?? DEFAULT_LEVEL,
  };
}

/** pass@k and maj@k over the questions with at least k scored samples (null when none has). */
function repeatsFigures(rs: readonly EvalResult[], k: number) {
  if (k < 2) return { passAtK: null, majAtK: null };
  const groups = [
    ...groupByQuestion(rs, (r) =>
      r.correct === null || r.error ? null : { answer: r.extracted, correct: r.correct },
    ).values(),
  ].filter((g) => g.length >= k);
  if (groups.length === 0) return { passAtK: null, majAtK: null };
  return {
    passAtK: avg(groups.map((g) => passAtK(g.length, g.filter((s) => s.correct).length, k))),
    majAtK: avg(groups.map((g) => (majorityCorrect(g) ? 1 : 0))),
  };
}

/** One strategy's row of the report. Results are taken as they stand (the last line of a key). */
function summariseOne(
  strategy: string,
  all: readonly EvalResult[],
  o: SummaryOptions,
): StrategySummary {
  const rs = all.filter((r) => r.strategy === strategy);
  const ok = rs.filter((r) => !r.error);
  const settings = bootstrapSettings(o);
  const correct = [...groupByQuestion(ok, (r) => bit(r.correct)).values()];
  const { mean, stderr } = meanAndStderr(correct.map(avg));
  const strict = [...groupByQuestion(ok, (r) => bit(r.strict)).values()].map(avg);
  const costs = [...groupByQuestion(ok, (r) => r.cost).values()];
  const lat = ok.map((r) => r.latencyMs);
  const k = o.repeats ?? 1;
  return {
    strategy,
    samples: rs.length,
    questions: new Set(ok.map((r) => r.item)).size,
    scored: ok.filter((r) => r.correct !== null).length,
    unscored: ok.filter((r) => r.correct === null).length,
    errors: rs.length - ok.length,
    accuracy: mean,
    stderr,
    accuracyCi: bootstrapMeanInterval(correct, settings),
    strictAccuracy: strict.length ? avg(strict) : null,
    k,
    ...repeatsFigures(ok, k),
    planFailures: ok.filter((r) => r.planFailed).length,
    fallbacks: ok.filter((r) => r.fallback === true).length,
    failedRuns: ok.filter((r) => r.status !== "done").length,
    cachedCalls: rs.reduce((n, r) => n + (r.cachedCalls ?? 0), 0),
    savedCost: rs.reduce((n, r) => n + (r.savedCost ?? 0), 0),
    unpricedCalls: ok.reduce((n, r) => n + (r.unpricedCalls ?? 0), 0),
    tokensPerQuestion: avg(ok.map((r) => r.tokens)),
    costPerQuestion: avg(ok.map((r) => r.cost)),
    costCi: bootstrapMeanInterval(costs, settings),
    callsPerQuestion: avg(ok.map((r) => r.calls)),
    latencyP50: percentile(lat, 50),
    latencyP95: percentile(lat, 95),
    pareto: false,
  };
}

/** The report table: one row per strategy, in the evaluation's order. */
export function summarise(
  results: readonly EvalResult[],
  strategies: readonly string[],
  options: SummaryOptions = {},
): StrategySummary[] {
  const current = latestResults(results);
  const rows = strategies.map((s) => summariseOne(s, current, options));
  const front = markPareto(rows);
  return rows.map((r, i) => ({ ...r, pareto: front[i]! }));
}

const CSV_COLUMNS = [
  "item",
  "strategy",
  "repeat",
  "correct",
  "strict",
  "score",
  "extracted",
  "expected",
  "answer",
  "tokens",
  "cost",
  "calls",
  "latencyMs",
  "status",
  "endReason",
  "planFailed",
  "fallback",
  "runId",
  "category",
] as const;

/** "math v3 (qwen-math)", "mc v3": a scorer as reports and tables name it. */
export function scorerLabel(s: {
  id: string;
  version: number;
  profile?: string | undefined;
}): string {
  return `${s.id} v${s.version}${s.profile !== undefined ? ` (${s.profile})` : ""}`;
}

/** Columns every row gets after those: its standing, its error (if any) and its scorer. */
const OUTCOME_COLUMNS = ["verdict", "errorStage", "errorCode", "errorMessage", "scoredBy"] as const;
const outcomeCells = (r: EvalResult) => [
  verdictOf(r),
  r.error?.stage,
  r.error?.code,
  r.error?.message,
  r.scoredBy ? scorerLabel(r.scoredBy) : undefined,
];

/** The code scorer's columns, added when any result has tests. */
const CODE_COLUMNS = ["testsPassed", "testsTotal", "testsTimeMs", "reason"] as const;
const codeCell = (r: EvalResult, c: (typeof CODE_COLUMNS)[number]) =>
  c === "reason"
    ? r.reason
    : c === "testsPassed"
      ? r.code?.passed
      : c === "testsTotal"
        ? r.code?.total
        : r.code?.timeMs;

/** The results as CSV, one row per (item, strategy, repeat) as it stands. */
export function resultsCsv(results: readonly EvalResult[]): string {
  const code = results.some((r) => r.code);
  const lines = [[...CSV_COLUMNS, ...OUTCOME_COLUMNS, ...(code ? CODE_COLUMNS : [])].join(",")];
  for (const r of latestResults(results)) {
    // A cost with an unpriced call in it is unknown: its cell is left empty, never written as 0.
    const cell = (c: (typeof CSV_COLUMNS)[number]) =>
      c === "cost" && r.unpricedCalls ? undefined : r[c];
    const cells = [...CSV_COLUMNS.map(cell), ...outcomeCells(r)].map(csvCell);
    if (code) cells.push(...CODE_COLUMNS.map((c) => csvCell(codeCell(r, c))));
    lines.push(cells.join(","));
  }
  return lines.join("\n") + "\n";
}

const duration = (ms: number) =>
  ms < 1000 ? `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;

/** A failing test's verdict in words ("time limit exceeded"). */
export function verdictText(verdict: string): string {
  const known: Record<string, string> = VERDICT_TEXT;
  return known[verdict] ?? verdict.replace(/_/g, " ");
}

/**
 * One line on a code answer's tests: passed / total and the time, then the first failing test
 * with what it expected and what the program gave.
 */
export function codeResultText(c: CodeResult): string {
  const skipped = c.skipped ? ` (${c.skipped} not run)` : "";
  const head = `${c.passed}/${c.total} tests passed${skipped} in ${duration(c.timeMs)}`;
  const f = c.firstFailure;
  if (!f) return head;
  const fn = f.args !== undefined;
  const show = (s: string) => (fn ? s || "nothing" : JSON.stringify(s));
  const given = fn ? `args ${f.args}` : `input ${JSON.stringify(f.input ?? "")}`;
  const error = f.error ? ` (${f.error})` : "";
  return `${head}; test ${f.index + 1} ${verdictText(f.verdict)}: ${given}, expected ${show(f.expected)}, got ${show(f.actual)}${error}`;
}

/** One matrix cell: the mean correctness of its scored samples, its errored samples, its runs. */
export interface MatrixCell {
  mean: number | null;
  errors: number;
  runIds: string[];
}

/**
 * Which strategies got each question right: item -> strategy -> cell. An errored sample is counted
 * apart, never as wrong; a cell whose every sample errored has a null mean and errors > 0.
 */
export function correctnessMatrix(
  results: readonly EvalResult[],
): Map<string, Map<string, MatrixCell>> {
  const m = new Map<
    string,
    Map<string, { sum: number; n: number; errors: number; runIds: string[] }>
  >();
  for (const r of latestResults(results)) {
    const row =
      m.get(r.item) ??
      new Map<string, { sum: number; n: number; errors: number; runIds: string[] }>();
    const cell = row.get(r.strategy) ?? { sum: 0, n: 0, errors: 0, runIds: [] };
    const scored = !r.error && r.correct !== null;
    row.set(r.strategy, {
      sum: cell.sum + (scored && r.correct ? 1 : 0),
      n: cell.n + (scored ? 1 : 0),
      errors: cell.errors + (r.error ? 1 : 0),
      runIds: [...cell.runIds, r.runId],
    });
    m.set(r.item, row);
  }
  return new Map(
    [...m].map(([item, row]) => [
      item,
      new Map(
        [...row].map(([s, c]) => [
          s,
          { mean: c.n ? c.sum / c.n : null, errors: c.errors, runIds: c.runIds },
        ]),
      ),
    ]),
  );
}
