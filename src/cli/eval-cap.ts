// What `eval --max-cost` tells the user when the cap kept work from starting: per strategy, how
// many items, the estimate that did not fit and what it rested on.
import type { SkippedStrategy } from "../engine/eval/runner.ts";
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
