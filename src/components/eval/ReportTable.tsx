import type { StrategySummary } from "../../engine/eval/report.ts";
import { formatCost } from "../../engine/cost.ts";

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const ms = (x: number | null) =>
  x === null ? "—" : x < 1000 ? `${x.toFixed(0)} ms` : `${(x / 1000).toFixed(1)} s`;

/** Per strategy: accuracy ± s.e., plan failures, tokens, cost and calls per question, latency p50/p95. */
export function ReportTable({
  rows,
  metric = "Accuracy",
}: {
  rows: StrategySummary[];
  /** The accuracy column's name: "pass@1" for the code scorer. */
  metric?: string;
}) {
  const strict = rows.some((r) => r.strictAccuracy !== null);
  const fallbacks = rows.some((r) => r.fallbacks > 0);
  return (
    <table className="eval-table" data-testid="eval-report">
      <thead>
        <tr>
          <th>Strategy</th>
          <th>{metric}</th>
          <th>± s.e.</th>
          {strict && <th title='Only an "Answer: X" line counts'>Strict</th>}
          <th>Scored</th>
          <th>Plan failures</th>
          {fallbacks && (
            <th title="A named worker answered alone: the Conductor could not plan">Fallbacks</th>
          )}
          <th>Tokens / q</th>
          <th>Cost / q</th>
          <th>Calls / q</th>
          <th>p50</th>
          <th>p95</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.strategy}
            data-testid={`report-${r.strategy}`}
            className={r.pareto ? "pareto" : undefined}
          >
            <th scope="row">
              {r.strategy}
              {r.pareto && <span title="On the Pareto front of accuracy and cost"> ★</span>}
            </th>
            <td data-testid="accuracy">{pct(r.accuracy)}</td>
            <td>{r.stderr === null ? "—" : `±${(r.stderr * 100).toFixed(1)}`}</td>
            {strict && <td>{pct(r.strictAccuracy)}</td>}
            <td>
              {r.scored}/{r.n}
            </td>
            <td>{r.strategy === "conductor" ? r.planFailures : "—"}</td>
            {fallbacks && <td data-testid="fallbacks">{r.fallbacks}</td>}
            <td>{r.tokensPerQuestion.toFixed(0)}</td>
            <td>{formatCost(r.costPerQuestion)}</td>
            <td>{r.callsPerQuestion.toFixed(1)}</td>
            <td>{ms(r.latencyP50)}</td>
            <td>{ms(r.latencyP95)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
