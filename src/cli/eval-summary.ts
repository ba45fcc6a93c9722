// `eval --json`: the summary for scripts, one JSON document on stdout.
import type { StrategySummary } from "../engine/eval/report.ts";

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
