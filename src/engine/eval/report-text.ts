import type { Analysis, CategoryRow, Comparison, ScorerUse } from "./analysis.ts";
import { mixedScorers } from "./analysis.ts";
import { scorerLabel } from "./report.ts";
import { csvCell } from "../csv.ts";
import type { StrategySummary } from "./report.ts";
import type { Interval } from "./stats/bootstrap.ts";

const pct = (x: number | null) => (x === null ? "-" : (x * 100).toFixed(1));
const ci = (i: Interval | null, f: (x: number) => string) =>
  i === null ? "-" : `${f(i.lo)}-${f(i.hi)}`;
const dollars = (x: number) => x.toFixed(5);

/** Left-aligned first column, right-aligned others, two spaces apart. */
function aligned(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), ...body.map(line)].join("\n") + "\n";
}

/**
 * The summary as an aligned text table (the CLI's stdout); pass@k and maj@k with repeats, and the
 * calls the response cache answered (with the money they saved) when it answered any.
 */
export function summaryTable(rows: readonly StrategySummary[]): string {
  const k = rows.find((r) => r.k > 1)?.k;
  const cached = rows.some((r) => r.cachedCalls > 0);
  const head = [
    "strategy",
    "acc %",
    "95% CI",
    "± s.e.",
    ...(k ? [`pass@${k}`, `maj@${k}`] : []),
    "questions",
    "samples",
    "errors",
    "unscored",
    "plan fail",
    "fallback",
    "tokens/q",
    "cost/q $",
    "cost 95% CI",
    "calls/q",
    ...(cached ? ["cached", "saved $"] : []),
    "p50 ms",
    "p95 ms",
    "pareto",
  ];
  const body = rows.map((r) => [
    r.strategy,
    pct(r.accuracy),
    ci(r.accuracyCi, (x) => pct(x)),
    pct(r.stderr),
    ...(k ? [pct(r.passAtK), pct(r.majAtK)] : []),
    String(r.questions),
    String(r.samples),
    String(r.errors),
    String(r.unscored),
    String(r.planFailures),
    String(r.fallbacks),
    r.tokensPerQuestion.toFixed(0),
    dollars(r.costPerQuestion),
    ci(r.costCi, dollars),
    r.callsPerQuestion.toFixed(2),
    ...(cached ? [String(r.cachedCalls), dollars(r.savedCost)] : []),
    r.latencyP50 === null ? "-" : r.latencyP50.toFixed(0),
    r.latencyP95 === null ? "-" : r.latencyP95.toFixed(0),
    r.pareto ? "*" : "",
  ]);
  return aligned(head, body);
}

const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;

/** The paired comparisons with the Conductor as a table, then one plain sentence each. */
export function comparisonText(comparisons: readonly Comparison[]): string {
  if (comparisons.length === 0) return "";
  const head = ["vs the Conductor", "questions", "Δ points", "95% CI", "p", "test"];
  const body = comparisons.map((c) => [
    c.strategy,
    String(c.questions),
    signed(c.difference),
    `${signed(c.interval.lo)} to ${signed(c.interval.hi)}`,
    c.p < 0.001 ? "<0.001" : c.p.toFixed(3),
    c.test === "mcnemar" ? `McNemar (${c.discordant!.aOnly}/${c.discordant!.bOnly})` : "bootstrap",
  ]);
  return `${aligned(head, body)}${comparisons.map((c) => c.sentence).join("\n")}\n`;
}

/** The per-category table: accuracy, cost and calls per question of each strategy. */
export function categoryText(rows: readonly CategoryRow[]): string {
  if (rows.length === 0) return "";
  const head = ["category", "strategy", "questions", "acc %", "cost/q $", "calls/q"];
  const body = rows.map((r) => [
    r.category,
    r.strategy,
    String(r.questions),
    pct(r.accuracy),
    r.costPerQuestion === null ? "-" : dollars(r.costPerQuestion),
    r.callsPerQuestion === null ? "-" : r.callsPerQuestion.toFixed(2),
  ]);
  return aligned(head, body);
}

/** "contains v2 (18)", and a warning when verdicts came from more than one scorer version. */
export function scorerNote(uses: readonly ScorerUse[]): string {
  const list = uses
    .map((u) => `${scorerLabel(u)} (${u.results}${u.assumed ? ", as recorded" : ""})`)
    .join(", ");
  if (!mixedScorers(uses)) return uses.length ? `Scored by ${list}.` : "";
  return `Mixed scorers: ${list}. Re-score to put every verdict on one version.`;
}

/** The whole report as text: summary, comparisons, categories, scorers and the bootstrap seed. */
export function reportText(a: Analysis): string {
  const parts = [
    summaryTable(a.strategies),
    comparisonText(a.comparisons),
    categoryText(a.categories),
    `${scorerNote(a.scorers)} Intervals: ${a.bootstrap.resamples} bootstrap resamples, seed ${a.bootstrap.seed}.\n`,
  ];
  return parts.filter(Boolean).join("\n");
}

/**
 * The report as CSV: one row per strategy with its interval and its comparison with the Conductor
 * (blank for the Conductor itself), then the bootstrap settings on every row.
 */
export function reportCsv(a: Analysis): string {
  const head = [
    "strategy",
    "questions",
    "samples",
    "errors",
    "unscored",
    "accuracy",
    "accuracyLo",
    "accuracyHi",
    "passAtK",
    "majAtK",
    "k",
    "costPerQuestion",
    "costLo",
    "costHi",
    "callsPerQuestion",
    "tokensPerQuestion",
    "cachedCalls",
    "savedCost",
    "vsConductorDifference",
    "vsConductorLo",
    "vsConductorHi",
    "vsConductorP",
    "vsConductorTest",
    "vsConductorVerdict",
    "bootstrapSeed",
    "bootstrapResamples",
  ];
  const rows = a.strategies.map((r) => {
    const c = a.comparisons.find((x) => x.strategy === r.strategy);
    // Unpriced calls make the cost unknown: its cells are left empty, never written as 0.
    const priced = r.unpricedCalls === 0;
    return [
      r.strategy,
      r.questions,
      r.samples,
      r.errors,
      r.unscored,
      r.accuracy,
      r.accuracyCi?.lo,
      r.accuracyCi?.hi,
      r.passAtK,
      r.majAtK,
      r.k,
      priced ? r.costPerQuestion : undefined,
      priced ? r.costCi?.lo : undefined,
      priced ? r.costCi?.hi : undefined,
      r.callsPerQuestion,
      r.tokensPerQuestion,
      r.cachedCalls,
      r.savedCost,
      c?.difference,
      c?.interval.lo,
      c?.interval.hi,
      c?.p,
      c?.test,
      c?.verdict,
      a.bootstrap.seed,
      a.bootstrap.resamples,
    ].map(csvCell);
  });
  return [head.join(","), ...rows.map((r) => r.join(","))].join("\n") + "\n";
}
