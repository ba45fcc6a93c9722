import { useEffect, useMemo, useState } from "react";
import type { Evaluation } from "../../engine/eval/schema.ts";
import type { BenchmarkRun } from "../../engine/eval/table1.ts";
import { table1, table1Csv, table1Markdown } from "../../engine/eval/table1.ts";
import { download } from "../../state/run/files.ts";
import { table1Choices, table1Columns, table1Runs } from "../../state/eval/evalTable1.ts";
import { useStudio } from "../../state/slices/store.ts";

const pct = (x: number | null) => (x === null ? "–" : (x * 100).toFixed(1));

/**
 * The paper's Table 1 on this pool: the stored evaluations of benchmark presets (the latest of each
 * by default), strategies down, benchmarks across; exported as CSV or Markdown.
 */
export function Table1Panel() {
  const current = useStudio((s) => s.evaluation);
  // The current evaluation's results are read again when it stops, so its column is not the
  // empty one read when it started.
  const phase = useStudio((s) => s.evalPhase);
  const [all, setAll] = useState<Evaluation[]>([]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [runs, setRuns] = useState<BenchmarkRun[]>([]);
  useEffect(() => {
    void table1Choices().then((c) => {
      setAll(c.all);
      setChosen(c.chosen);
    });
  }, [current]);
  useEffect(() => {
    const picked = table1Columns(all.filter((e) => chosen.includes(e.id)));
    void table1Runs(picked).then(setRuns);
  }, [all, chosen, phase]);
  const t = useMemo(() => table1(runs), [runs]);
  if (all.length === 0) return null;
  const toggle = (id: string, on: boolean) =>
    setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  return (
    <section aria-label="Table 1" data-testid="table1">
      <h3>Table 1: your pool on the benchmarks</h3>
      <details>
        <summary>Evaluations in the table ({chosen.length})</summary>
        {all.map((e) => (
          <label key={e.id} className="field checkbox">
            <input
              type="checkbox"
              checked={chosen.includes(e.id)}
              onChange={(ev) => toggle(e.id, ev.target.checked)}
            />
            {e.benchmark?.name} · {e.name} · {new Date(e.createdAt).toISOString().slice(0, 16)}
          </label>
        ))}
      </details>
      {runs.length > 0 && (
        <>
          <table className="eval-table" data-testid="table1-table">
            <thead>
              <tr>
                <th>Strategy</th>
                {t.benchmarks.map((b, i) => (
                  <th key={`${b}-${i}`}>{b}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.strategies.map((s, i) => (
                <tr key={s}>
                  <th scope="row">{s}</th>
                  {t.cells[i]!.map((c, j) => (
                    <td key={j} title={c ? `${c.questions} questions` : "not run"}>
                      {c && (
                        <>
                          {pct(c.accuracy)}
                          {c.lo !== null && c.hi !== null && (
                            <small>
                              {" "}
                              [{pct(c.lo)}, {pct(c.hi)}]
                            </small>
                          )}
                          <br />
                          <small>${c.costPerQuestion.toFixed(4)}/q</small>
                        </>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            Accuracy in % with its 95% bootstrap interval over questions; cost per question.
          </p>
          <div className="row">
            <button type="button" onClick={() => download(table1Csv(t), "table1.csv")}>
              Export CSV
            </button>
            <button type="button" onClick={() => download(table1Markdown(t), "table1.md")}>
              Export Markdown
            </button>
          </div>
        </>
      )}
    </section>
  );
}
