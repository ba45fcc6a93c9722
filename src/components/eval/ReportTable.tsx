import type { StrategySummary } from "../../engine/eval/report.ts";
import type { Interval } from "../../engine/eval/stats/bootstrap.ts";
import { formatCost } from "../../engine/cost.ts";

/** A strategy's cost per question where some calls had no price: unknown, or at least the priced part. */
function unpricedText(r: StrategySummary): string {
  const n = r.unpricedCalls;
  const calls = `${n} call${n === 1 ? "" : "s"} unpriced`;
  return r.costPerQuestion > 0
    ? `≥ ${formatCost(r.costPerQuestion)}, ${calls}`
    : `unknown (${calls})`;
}

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const ms = (x: number | null) =>
  x === null ? "—" : x < 1000 ? `${x.toFixed(0)} ms` : `${(x / 1000).toFixed(1)} s`;
const range = (i: Interval | null, f: (x: number) => string) =>
  i === null ? "—" : `${f(i.lo)} – ${f(i.hi)}`;
const points = (x: number) => (x * 100).toFixed(1);

/**
 * Per strategy: accuracy with its 95% bootstrap interval and s.e., pass@k and maj@k with repeats,
 * questions and samples apart, errored and unscored samples, plan failures, tokens, cost (with its
 * interval) and calls per question, latency p50/p95.
 */
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
  const k = rows.find((r) => r.k > 1)?.k;
  return (
    <table className="eval-table" data-testid="eval-report">
      <thead>
        <tr>
          <th>Strategy</th>
          <th>{metric}</th>
          <th title="95% bootstrap interval over questions (repeats resampled within each)">
            95% CI
          </th>
          <th>± s.e.</th>
          {k && <th title={`Unbiased pass@${k} (Chen et al. 2021)`}>pass@{k}</th>}
          {k && <th title={`Majority vote over ${k} samples`}>maj@{k}</th>}
          {strict && <th title='Only an "Answer: X" line counts'>Strict</th>}
          <th>Questions</th>
          <th title="Samples with a verdict / all samples">Scored</th>
          <th title="Items whose calls failed: not counted as wrong, run again on resume">
            Errors
          </th>
          <th>Plan failures</th>
          {fallbacks && (
            <th title="A named worker answered alone: the Conductor could not plan">Fallbacks</th>
          )}
          <th>Tokens / q</th>
          <th>Cost / q</th>
          <th>Cost 95% CI</th>
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
              {r.pareto && !r.unpricedCalls && (
                <span title="On the Pareto front of accuracy and cost"> ★</span>
              )}
            </th>
            <td data-testid="accuracy">{pct(r.accuracy)}</td>
            <td data-testid="accuracy-ci">{range(r.accuracyCi, points)}</td>
            <td>{r.stderr === null ? "—" : `±${(r.stderr * 100).toFixed(1)}`}</td>
            {k && <td data-testid="pass-at-k">{pct(r.passAtK)}</td>}
            {k && <td data-testid="maj-at-k">{pct(r.majAtK)}</td>}
            {strict && <td>{pct(r.strictAccuracy)}</td>}
            <td data-testid="questions">{r.questions}</td>
            <td data-testid="scored">
              {r.scored}/{r.samples}
            </td>
            <td data-testid="errors" className={r.errors ? "has-errors" : undefined}>
              {r.errors}
            </td>
            <td>{r.strategy === "conductor" ? r.planFailures : "—"}</td>
            {fallbacks && <td data-testid="fallbacks">{r.fallbacks}</td>}
            <td>{r.tokensPerQuestion.toFixed(0)}</td>
            <td data-testid="cost-per-question">
              {r.unpricedCalls ? unpricedText(r) : formatCost(r.costPerQuestion)}
            </td>
            <td data-testid="cost-ci">
              {r.unpricedCalls ? "unknown" : range(r.costCi, formatCost)}
            </td>
            <td>{r.callsPerQuestion.toFixed(1)}</td>
            <td>{ms(r.latencyP50)}</td>
            <td>{ms(r.latencyP95)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
