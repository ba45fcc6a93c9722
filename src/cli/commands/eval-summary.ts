// The end of `eval`: `--json`'s summary for scripts (one JSON document on stdout), what it keeps of
// each result for the summary table, and what `--max-cost` tells the user when the cap kept work
// from starting (per strategy, how many items, the estimate that did not fit and what it rested on).
import type { StrategySummary } from "../../engine/eval/report.ts";
import type { SkippedStrategy } from "../../engine/eval/runner.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { capDollars, describeSkipped } from "../../engine/eval/skipped.ts";

/** A 95% interval for an accuracy from its standard error (normal approximation, clamped to [0, 1]). */
export function interval95(
  accuracy: number | null,
  stderr: number | null,
): [number, number] | null {
  if (accuracy === null || stderr === null) return null;
  return [Math.max(0, accuracy - 1.96 * stderr), Math.min(1, accuracy + 1.96 * stderr)];
}

/** The summary rows with their intervals, and how the run ended. */
export function summaryJson(
  rows: readonly StrategySummary[],
  outcome: { status: string; done: number; total: number; cost: number },
  extra: { out: string; seconds: number },
): string {
  const doc = {
    format: "conductor-studio-eval-summary",
    version: 1,
    status: outcome.status,
    done: outcome.done,
    total: outcome.total,
    cost: outcome.cost,
    seconds: Math.round(extra.seconds * 10) / 10,
    results: extra.out,
    strategies: rows.map((r) => ({ ...r, accuracyInterval95: interval95(r.accuracy, r.stderr) })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The lines for a run the spending cap stopped (`skipped` may be empty: the spend reached it). */
export function capSummary(
  cap: number,
  outcome: { cost: number; done: number; total: number; skipped: readonly SkippedStrategy[] },
): string {
  const head = `Spending cap ${capDollars(cap)}: ${capDollars(outcome.cost)} spent, ${outcome.done}/${outcome.total} item(s) done.`;
  if (outcome.skipped.length === 0)
    return `${head} The spend reached the cap; the runs still going were stopped.\n`;
  const lines = outcome.skipped.map((s) => `  ${describeSkipped(s)}`);
  return `${head} Not started, because each would pass the cap:\n${lines.join("\n")}\n`;
}

/**
 * A result as the summary needs it: without the answer's text, which is on disk in --out already
 * and would make an evaluation of 10,000 items hold every answer in memory until its end.
 */
export function forSummary(r: EvalResult): EvalResult {
  return { ...r, answer: null };
}
