import { formatCost } from "../../engine/cost.ts";
import type { StrategySummary } from "../../engine/eval/report.ts";

/** The report's line on the response cache: how many calls it answered and the money saved. */
export function CacheSummary({ rows }: { rows: StrategySummary[] }) {
  const cached = rows.reduce((n, r) => n + r.cachedCalls, 0);
  if (cached === 0) return null;
  const saved = rows.reduce((n, r) => n + r.savedCost, 0);
  return (
    <p className="muted" data-testid="eval-cache-summary">
      {cached} call{cached === 1 ? "" : "s"} answered from the response cache, at no cost:{" "}
      {formatCost(saved)} saved. The costs below count only the money spent.
    </p>
  );
}
