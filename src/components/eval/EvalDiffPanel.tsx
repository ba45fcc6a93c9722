import { useEffect, useMemo } from "react";
import type { FlippedItem } from "../../engine/eval/diff.ts";
import { diffEvaluations } from "../../engine/eval/diff.ts";
import { useStudio } from "../../state/slices/store.ts";
import { openItemRun } from "../../state/eval/evalController.ts";
import { chooseDiff, loadDiffChoices } from "../../state/eval/evalDiffController.ts";

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const points = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;
const verdict = (x: number) => (x === 1 ? "right" : x === 0 ? "wrong" : `${(x * 100).toFixed(0)}%`);
const when = (t: number) => new Date(t).toISOString().slice(0, 16).replace("T", " ");

/** One flipped question: how it moved, and buttons opening its run on each side. */
function Flipped({ f, idA, idB }: { f: FlippedItem; idA: string; idB: string }) {
  return (
    <li data-testid={`diff-flip-${f.item}-${f.strategy}`} data-flip={f.flip}>
      {f.item} · {f.strategy}: {verdict(f.a)} → {verdict(f.b)}{" "}
      <button type="button" onClick={() => void openItemRun(f.runIdsA[0]!, idA)}>
        Open this run
      </button>{" "}
      <button type="button" onClick={() => void openItemRun(f.runIdsB[0]!, idB)}>
        Open the other run
      </button>
    </li>
  );
}

/** This evaluation against another stored one of the same questions: changes and flipped items. */
export function EvalDiffPanel() {
  const evaluation = useStudio((s) => s.evaluation);
  const results = useStudio((s) => s.evalResults);
  const choices = useStudio((s) => s.evalDiffChoices);
  const other = useStudio((s) => s.evalDiffOther);
  useEffect(() => {
    void loadDiffChoices();
  }, [evaluation]);
  const diff = useMemo(
    () =>
      other && evaluation
        ? diffEvaluations(results, other.results, { seed: evaluation.seed })
        : null,
    [other, results, evaluation],
  );
  if (!evaluation || choices.length === 0) return null;
  return (
    <section aria-label="Compare evaluations" data-testid="eval-diff">
      <label>
        Compare with{" "}
        <select
          data-testid="eval-diff-choice"
          value={other?.evaluation.id ?? ""}
          onChange={(e) => void chooseDiff(e.target.value || null)}
        >
          <option value="">(another evaluation of these questions)</option>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} · {when(c.createdAt)}
            </option>
          ))}
        </select>
      </label>
      {diff && other && (
        <>
          <table className="eval-table" data-testid="eval-diff-table">
            <thead>
              <tr>
                <th>Strategy</th>
                <th>This</th>
                <th>Other</th>
                <th title="The other evaluation's accuracy minus this one's">Δ points</th>
                <th>95% CI</th>
                <th>p</th>
              </tr>
            </thead>
            <tbody>
              {diff.strategies.map((s) => (
                <tr key={s.strategy} data-testid={`diff-${s.strategy}`}>
                  <th scope="row">{s.strategy}</th>
                  <td>{pct(s.accuracyA)}</td>
                  <td>{pct(s.accuracyB)}</td>
                  <td>{s.change ? points(s.change.difference) : "—"}</td>
                  <td>
                    {s.change
                      ? `${points(s.change.interval.lo)} to ${points(s.change.interval.hi)}`
                      : "—"}
                  </td>
                  <td>
                    {s.change ? (s.change.p < 0.001 ? "< 0.001" : s.change.p.toFixed(3)) : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>{diff.flipped.length} question(s) flipped.</p>
          <ul className="eval-flipped">
            {diff.flipped.map((f) => (
              <Flipped
                key={`${f.item}\n${f.strategy}`}
                f={f}
                idA={evaluation.id}
                idB={other.evaluation.id}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
