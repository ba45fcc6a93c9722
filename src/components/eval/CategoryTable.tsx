import type { CategoryRow } from "../../engine/eval/analysis.ts";
import { formatCost } from "../../engine/cost.ts";

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);

/** Accuracy, cost and calls per question of each strategy within each category. */
export function CategoryTable({ rows, strategies }: { rows: CategoryRow[]; strategies: string[] }) {
  if (rows.length === 0) return null;
  const categories = [...new Set(rows.map((r) => r.category))];
  const cell = (c: string, s: string) => rows.find((r) => r.category === c && r.strategy === s);
  return (
    <section aria-label="Per category">
      <table className="eval-table" data-testid="eval-categories">
        <thead>
          <tr>
            <th>Category</th>
            {strategies.map((s) => (
              <th key={s}>{s}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {categories.map((c) => (
            <tr key={c} data-testid={`category-${c}`}>
              <th scope="row">{c}</th>
              {strategies.map((s) => {
                const r = cell(c, s);
                return (
                  <td key={s} data-testid={`category-${c}-${s}`}>
                    {r && r.questions > 0
                      ? `${pct(r.accuracy)} · ${formatCost(r.costPerQuestion ?? 0)} · ${(r.callsPerQuestion ?? 0).toFixed(1)} calls (${r.questions} q)`
                      : "—"}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
