import type { Comparison } from "../../engine/eval/analysis.ts";

const signed = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;

/** Every strategy against the Conductor on the same questions, then the plain sentence each. */
export function ComparisonPanel({ comparisons }: { comparisons: Comparison[] }) {
  if (comparisons.length === 0) return null;
  return (
    <section aria-label="Compared with the Conductor" data-testid="eval-comparisons">
      <table className="eval-table">
        <thead>
          <tr>
            <th>Against the Conductor</th>
            <th>Questions</th>
            <th title="The Conductor's accuracy minus this strategy's, in points">Δ points</th>
            <th>95% CI</th>
            <th>p</th>
            <th>Test</th>
          </tr>
        </thead>
        <tbody>
          {comparisons.map((c) => (
            <tr key={c.strategy} data-testid={`comparison-${c.strategy}`} data-verdict={c.verdict}>
              <th scope="row">{c.strategy}</th>
              <td>{c.questions}</td>
              <td>{signed(c.difference)}</td>
              <td>
                {signed(c.interval.lo)} to {signed(c.interval.hi)}
              </td>
              <td>{c.p < 0.001 ? "< 0.001" : c.p.toFixed(3)}</td>
              <td
                title={
                  c.test === "mcnemar"
                    ? "Exact McNemar test on the questions only one of the two got right"
                    : "Paired bootstrap over questions, repeats resampled within each"
                }
              >
                {c.test === "mcnemar"
                  ? `McNemar (${c.discordant?.aOnly ?? 0} vs ${c.discordant?.bOnly ?? 0})`
                  : "paired bootstrap"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="eval-sentences">
        {comparisons.map((c) => (
          <li key={c.strategy} data-testid="comparison-sentence">
            {c.sentence}
          </li>
        ))}
      </ul>
    </section>
  );
}
