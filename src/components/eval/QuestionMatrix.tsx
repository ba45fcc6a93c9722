import { codeResultText, correctnessMatrix } from "../../engine/eval/report.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { useStudio } from "../../state/slices/store.ts";

/** Which strategies got each question right; a cell opens that item (answer, verdict, run) in place of the report. */
export function QuestionMatrix({
  results,
  strategies,
  items,
}: {
  results: EvalResult[];
  strategies: string[];
  items: string[];
}) {
  const m = correctnessMatrix(results);
  // The code scorer's tests of a cell's first result, for its tooltip.
  const tests = new Map(
    [...results]
      .reverse()
      .flatMap((r) => (r.code ? [[`${r.item}\n${r.strategy}`, r.code] as const] : [])),
  );
  // Why a cell has no verdict: the error, or the scorer's reason (a judge that failed).
  const why = new Map(
    [...results]
      .reverse()
      .flatMap((r) =>
        r.error || r.correct === null
          ? [[`${r.item}\n${r.strategy}`, r.error?.message ?? r.reason ?? ""] as const]
          : [],
      ),
  );
  return (
    <div className="matrix-wrap">
      <table className="eval-matrix" data-testid="eval-matrix">
        <thead>
          <tr>
            <th>Question</th>
            {strategies.map((s) => (
              <th key={s}>{s}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item}>
              <th scope="row">{item}</th>
              {strategies.map((s) => {
                const c = m.get(item)?.get(s);
                if (!c) return <td key={s} className="pending" />;
                const cls =
                  c.mean === null
                    ? c.errors > 0
                      ? "error"
                      : "unscored"
                    : c.mean === 1
                      ? "right"
                      : c.mean === 0
                        ? "wrong"
                        : "mixed";
                const code = tests.get(`${item}\n${s}`);
                return (
                  <td key={s} className={cls}>
                    <button
                      type="button"
                      data-testid={`cell-${item}-${s}`}
                      data-result={cls}
                      aria-label={`${item} with ${s}: ${cls === "mixed" ? `${Math.round(c.mean! * 100)}% right` : cls}`}
                      title={`${code ? `${codeResultText(code)}. ` : ""}${cls === "error" ? `A call failed (not a wrong answer; Resume runs it again): ${why.get(`${item}\n${s}`) ?? ""} ` : cls === "unscored" ? `Unscored: ${why.get(`${item}\n${s}`) ?? ""} ` : c.errors ? `${c.errors} sample(s) errored. ` : ""}Open ${item} with ${s}: its answer, verdict and run`}
                      onClick={() =>
                        useStudio.getState().patchEval({ evalOpenItem: { item, strategy: s } })
                      }
                    >
                      {cls === "right"
                        ? "✓"
                        : cls === "wrong"
                          ? "✗"
                          : cls === "unscored"
                            ? "?"
                            : cls === "error"
                              ? "!"
                              : `${Math.round(c.mean! * 100)}%`}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
