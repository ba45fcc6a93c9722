// The end of `eval`: what it keeps of each result for the summary table, and what `--max-cost`
// tells the user when the cap kept work from starting (per strategy, how many items, the
// estimate that did not fit and what it rested on).
import type { SkippedStrategy } from "../engine/eval/runner.ts";
import type { EvalResult } from "../engine/eval/schema.ts";
import { capDollars, describeSkipped } from "../engine/eval/skipped.ts";

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
