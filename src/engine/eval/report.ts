import { csvCell } from "../csv.ts";
import { VERDICT_TEXT } from "./code/scorer.ts";
import type { CodeResult, EvalResult, Evaluation } from "./schema.ts";

export interface StrategySummary {
  strategy: string;
  /** Results recorded, and those with a verdict (unscored ones are left out of accuracy). */
  n: number;
  scored: number;
  questions: number;
  /** Mean of per-question accuracy (repeats averaged first), with its standard error. */
  accuracy: number | null;
  stderr: number | null;
  /** Multiple choice: accuracy under the strict rule, beside the lenient one. */
  strictAccuracy: number | null;
  planFailures: number;
  /** Runs a named worker answered alone because the Conductor could not plan. */
  fallbacks: number;
  failedRuns: number;
  tokensPerQuestion: number;
  costPerQuestion: number;
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

function perQuestion(
  rs: EvalResult[],
  pick: (r: EvalResult) => boolean | null | undefined,
): number[] {
  const by = new Map<string, number[]>();
  for (const r of rs) {
    const v = pick(r);
    if (v === null || v === undefined) continue;
    by.set(r.item, [...(by.get(r.item) ?? []), v ? 1 : 0]);
  }
  return [...by.values()].map(avg);
}

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

/** The report table: one row per strategy, in the evaluation's order. */
export function summarise(
  results: readonly EvalResult[],
  strategies: readonly string[],
): StrategySummary[] {
  const rows = strategies.map((strategy) => {
    const rs = results.filter((r) => r.strategy === strategy);
    const { mean, stderr } = meanAndStderr(perQuestion(rs, (r) => r.correct));
    const strict = perQuestion(rs, (r) => r.strict);
    const questions = new Set(rs.map((r) => r.item)).size;
    const lat = rs.map((r) => r.latencyMs);
    return {
      strategy,
      n: rs.length,
      scored: rs.filter((r) => r.correct !== null).length,
      questions,
      accuracy: mean,
      stderr,
      strictAccuracy: strict.length ? avg(strict) : null,
      planFailures: rs.filter((r) => r.planFailed).length,
      fallbacks: rs.filter((r) => r.fallback === true).length,
      failedRuns: rs.filter((r) => r.status !== "done").length,
      tokensPerQuestion: avg(rs.map((r) => r.tokens)),
      costPerQuestion: avg(rs.map((r) => r.cost)),
      callsPerQuestion: avg(rs.map((r) => r.calls)),
      latencyP50: percentile(lat, 50),
      latencyP95: percentile(lat, 95),
      pareto: false,
    };
  });
  const front = markPareto(rows);
  return rows.map((r, i) => ({ ...r, pareto: front[i]! }));
}

const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}`);

/** The summary as an aligned text table (the CLI's stdout). */
export function summaryTable(rows: readonly StrategySummary[]): string {
  const head = [
    "strategy",
    "acc %",
    "± s.e.",
    "n",
    "plan fail",
    "fallback",
    "tokens/q",
    "cost/q $",
    "calls/q",
    "p50 ms",
    "p95 ms",
    "pareto",
  ];
  const body = rows.map((r) => [
    r.strategy,
    pct(r.accuracy),
    pct(r.stderr),
    String(r.n),
    String(r.planFailures),
    String(r.fallbacks),
    r.tokensPerQuestion.toFixed(0),
    r.costPerQuestion.toFixed(5),
    r.callsPerQuestion.toFixed(2),
    r.latencyP50 === null ? "-" : r.latencyP50.toFixed(0),
    r.latencyP95 === null ? "-" : r.latencyP95.toFixed(0),
    r.pareto ? "*" : "",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), ...body.map(line)].join("\n") + "\n";
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
] as const;

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

/** The results as CSV, one row per (item, strategy, repeat). */
export function resultsCsv(results: readonly EvalResult[]): string {
  const code = results.some((r) => r.code);
  const lines = [[...CSV_COLUMNS, ...(code ? CODE_COLUMNS : [])].join(",")];
  for (const r of results) {
    const cells = CSV_COLUMNS.map((c) => csvCell(r[c]));
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

/** The evaluation as one JSON document: its definition (pool without keys), summary and results. */
export function evaluationJson(evaluation: Evaluation, results: readonly EvalResult[]): string {
  const names = evaluation.strategies.map((s) =>
    s.kind === "single" ? `single:${s.worker}` : s.kind,
  );
  return (
    JSON.stringify(
      {
        ...evaluation,
        pool: evaluation.pool.map((w) => ({ ...w, headers: undefined })),
        summary: summarise(results, names),
        results,
      },
      null,
      2,
    ) + "\n"
  );
}

/** Which strategies got each question right: item -> strategy -> mean correctness (or null). */
export function correctnessMatrix(
  results: readonly EvalResult[],
): Map<string, Map<string, { mean: number | null; runIds: string[] }>> {
  const m = new Map<string, Map<string, { sum: number; n: number; runIds: string[] }>>();
  for (const r of results) {
    const row = m.get(r.item) ?? new Map<string, { sum: number; n: number; runIds: string[] }>();
    const cell = row.get(r.strategy) ?? { sum: 0, n: 0, runIds: [] };
    row.set(r.strategy, {
      sum: cell.sum + (r.correct ? 1 : 0),
      n: cell.n + (r.correct === null ? 0 : 1),
      runIds: [...cell.runIds, r.runId],
    });
    m.set(r.item, row);
  }
  return new Map(
    [...m].map(([item, row]) => [
      item,
      new Map([...row].map(([s, c]) => [s, { mean: c.n ? c.sum / c.n : null, runIds: c.runIds }])),
    ]),
  );
}
