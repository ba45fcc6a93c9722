import { useEffect } from "react";
import { PYODIDE_ASSETS } from "virtual:pyodide-assets";
import { showControlChars as shown } from "../../engine/eval/code/controlChars.ts";
import { verdictText } from "../../engine/eval/report.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { browserCodeSandbox } from "../../state/models/codeSandboxController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { CodeRuntimeNote } from "./CodeRuntimeNote.tsx";

const ms = (x: number) =>
  x < 1000 ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : `${(x / 1000).toFixed(1)} s`;

/** The Python runtime's note while an evaluation scores code: its size, its download (once), ready. */
export function CodeRuntimePanel() {
  const sandbox = useStudio((s) => s.codeSandbox);
  useEffect(() => {
    // Only the sandbox's module: Pyodide itself is fetched by the first program.
    void browserCodeSandbox().catch(() => undefined);
  }, []);
  if (!sandbox) return null;
  return (
    <CodeRuntimeNote
      sandbox={sandbox}
      sizeBytes={PYODIDE_ASSETS.totalBytes}
      version={PYODIDE_ASSETS.version}
    />
  );
}

/** The first failing test; what the program wrote (output, errors) is shown with its controls escaped. */
function Failure({ r }: { r: EvalResult }) {
  const f = r.code?.firstFailure;
  if (!f) return <td className="muted">{r.code ? "—" : shown(r.reason ?? "—")}</td>;
  const given = f.args !== undefined ? `args ${f.args}` : `input ${JSON.stringify(f.input ?? "")}`;
  return (
    <td>
      <div>
        test {f.index + 1}: {verdictText(f.verdict)}
        {f.error ? ` (${shown(f.error)})` : ""}
      </div>
      <div className="muted small">
        {shown(given)} · expected <code>{shown(f.expected)}</code> · got{" "}
        <code>{f.actual ? shown(f.actual) : "nothing"}</code>
      </div>
    </td>
  );
}

/** Per answer of a code evaluation: tests passed / total, the first failing test, the time. */
export function CodeResults({ results }: { results: EvalResult[] }) {
  if (results.length === 0) return null;
  const all = results.filter((r) => r.correct).length;
  return (
    <details className="code-results" open data-testid="code-results">
      <summary data-testid="code-results-summary">
        Tests per answer: {all} of {results.length} passed every test
      </summary>
      <table className="eval-table">
        <thead>
          <tr>
            <th>Question</th>
            <th>Strategy</th>
            <th>Tests</th>
            <th>First failing test</th>
            <th>Time</th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => (
            <tr
              key={`${r.item}-${r.strategy}-${r.repeat}`}
              data-testid={`code-result-${r.item}-${r.strategy}`}
            >
              <th scope="row">{r.item}</th>
              <td>
                {r.strategy}
                {r.repeat ? ` #${r.repeat + 1}` : ""}
              </td>
              <td data-testid="tests">{r.code ? `${r.code.passed}/${r.code.total}` : "—"}</td>
              <Failure r={r} />
              <td>{r.code ? ms(r.code.timeMs) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
