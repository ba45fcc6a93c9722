// What `eval --max-cost` tells the user when the cap kept work from starting: per strategy, how
// many items, the estimate that did not fit and what it rested on.
import type { EstimateBasis } from "../engine/eval/cost-model.ts";
import type { SkippedStrategy } from "../engine/eval/runner.ts";

/** Dollars to three significant digits: a cap of $0.025 reads as set, not rounded to cents. */
const formatCost = (x: number) => `$${Number(x.toPrecision(3))}`;

const BASIS: Record<EstimateBasis, string> = {
  strategy: "its measured mean",
  calls: "its workers' measured calls",
  prior: "prices and typical token counts, nothing measured yet",
};

/** The lines for a run the spending cap stopped (`skipped` may be empty: the spend reached it). */
export function capSummary(
  cap: number,
  outcome: { cost: number; done: number; total: number; skipped: readonly SkippedStrategy[] },
): string {
  const head = `Spending cap ${formatCost(cap)}: ${formatCost(outcome.cost)} spent, ${outcome.done}/${outcome.total} item(s) done.`;
  if (outcome.skipped.length === 0)
    return `${head} The spend reached the cap; the runs still going were stopped.\n`;
  const lines = outcome.skipped.map(
    (s) =>
      `  ${s.strategy}: ${s.items} item(s) skipped, estimated ${formatCost(s.estimate)} each (from ${BASIS[s.basis]}) with ${formatCost(s.left)} left`,
  );
  return `${head} Not started, because each would pass the cap:\n${lines.join("\n")}\n`;
}
