import { useEffect, useMemo } from "react";
import { oldScorerNote } from "../../engine/eval/code/scorer.ts";
import { evaluationJson, resultsCsv, summarise } from "../../engine/eval/report.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import { findResumable, resumeStored, trainingDataJsonl } from "../../state/evalController.ts";
import { useEval } from "../../state/eval.ts";
import { download } from "../../state/files.ts";
import { CodeResults, CodeRuntimePanel } from "./CodeResults.tsx";
import { EvalProgressBar } from "./EvalProgressBar.tsx";
import { MappingEditor } from "./MappingEditor.tsx";
import { ParetoPlot } from "./ParetoPlot.tsx";
import { QuestionMatrix } from "./QuestionMatrix.tsx";
import { ReportTable } from "./ReportTable.tsx";
import { SourcePicker } from "./SourcePicker.tsx";
import { StrategyPicker } from "./StrategyPicker.tsx";
import "./eval.css";

function Report() {
  const evaluation = useEval((s) => s.evaluation);
  const results = useEval((s) => s.results);
  const names = useMemo(() => evaluation?.strategies.map(strategyName) ?? [], [evaluation]);
  const rows = useMemo(() => summarise(results, names), [results, names]);
  const items = useMemo(() => [...new Set(results.map((r) => r.item))], [results]);
  if (!evaluation) return null;
  const code = evaluation.scorer.id === "code";
  const stamp = new Date(evaluation.createdAt).toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return (
    <section className="eval-card" aria-label="Report">
      <div className="row">
        <h3>Report: {evaluation.name}</h3>
        <button
          type="button"
          data-testid="eval-export-csv"
          onClick={() => download(resultsCsv(results), `eval-${stamp}.csv`)}
        >
          Export CSV
        </button>
        <button
          type="button"
          data-testid="eval-export-json"
          onClick={() => download(evaluationJson(evaluation, results), `eval-${stamp}.json`)}
        >
          Export JSON
        </button>
        {names.includes("conductor") && (
          <button
            type="button"
            data-testid="eval-export-training"
            title="One row per Conductor sample, with its reward (see the README for trainer shapes)"
            onClick={() =>
              void trainingDataJsonl().then((text) =>
                download(text, `conductor-samples-${stamp}.jsonl`),
              )
            }
          >
            Training data
          </button>
        )}
      </div>
      <p className="muted">
        Scorer {evaluation.scorer.id} v{evaluation.scorer.version} · dataset{" "}
        {evaluation.dataset.hash} · {evaluation.repeats} repeat(s) · choice seed {evaluation.seed}
      </p>
      {oldScorerNote(evaluation.scorer) && (
        <p className="warning" data-testid="old-scorer-note">
          {oldScorerNote(evaluation.scorer)}
        </p>
      )}
      {code && <CodeRuntimePanel />}
      <ReportTable rows={rows} metric={code ? "pass@1" : "Accuracy"} />
      <ParetoPlot rows={rows} />
      <QuestionMatrix results={results} strategies={names} items={items} />
      {code && <CodeResults results={results} />}
    </section>
  );
}

/** The Evaluate mode: a question set through several strategies, scored and compared. */
export default function EvaluateView() {
  const setOpen = useEval((s) => s.setOpen);
  const resumable = useEval((s) => s.resumable);
  const phase = useEval((s) => s.phase);
  useEffect(() => {
    void findResumable();
  }, []);
  const busy = phase === "running" || phase === "paused";
  return (
    <div className="evaluate" role="dialog" aria-label="Evaluate" data-testid="evaluate-view">
      <header className="row">
        <h2>Evaluate</h2>
        <span className="muted">
          A question set through the Conductor, each worker alone and fixed teams, scored.
        </span>
        <button type="button" data-testid="evaluate-close" onClick={() => setOpen(false)}>
          Back to the studio
        </button>
      </header>
      {resumable && !busy && (
        <div className="eval-card resumable" data-testid="eval-resumable">
          <span>
            “{resumable.evaluation.name}” stopped at {resumable.done}/{resumable.total}.
          </span>
          <button
            type="button"
            className="primary"
            data-testid="eval-resume-stored"
            onClick={() => void resumeStored()}
          >
            Resume it
          </button>
        </div>
      )}
      <EvalProgressBar />
      <div className="eval-columns">
        {!busy && (
          <div className="eval-setup">
            <SourcePicker />
            <MappingEditor />
            <StrategyPicker />
          </div>
        )}
        <div className="eval-results">
          <Report />
        </div>
      </div>
    </div>
  );
}
