import { useCallback, useEffect, useMemo } from "react";
import { oldScorerNote } from "../../engine/eval/code/scorer.ts";
import { analyse, evaluationJson } from "../../engine/eval/analysis.ts";
import { resultsCsv } from "../../engine/eval/report.ts";
import { reportCsv, scorerNote } from "../../engine/eval/report-text.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import { findResumable, resumeStored, trainingDataJsonl } from "../../state/eval/evalController.ts";
import { useStudio } from "../../state/slices/store.ts";
import { download } from "../../state/run/files.ts";
import { CacheSummary } from "./CacheSummary.tsx";
import { CategoryTable } from "./CategoryTable.tsx";
import { CodeResults, CodeRuntimePanel } from "./CodeResults.tsx";
import { ComparisonPanel } from "./ComparisonPanel.tsx";
import { EvalDiffPanel } from "./EvalDiffPanel.tsx";
import { EvalProgressBar } from "./EvalProgressBar.tsx";
import { MappingEditor } from "./MappingEditor.tsx";
import { ParetoPlot } from "./ParetoPlot.tsx";
import { ItemView } from "./ItemView.tsx";
import { QuestionMatrix } from "./QuestionMatrix.tsx";
import { SetupSummary } from "./SetupSummary.tsx";
import { ReportTable } from "./ReportTable.tsx";
import { Table1Panel } from "./Table1Panel.tsx";
import { RescoreControl } from "./RescoreControl.tsx";
import { SourcePicker } from "./SourcePicker.tsx";
import { StrategyPicker } from "./StrategyPicker.tsx";
import { Modal } from "../ui/Modal.tsx";
import "./eval.css";
import "./eval-views.css";

/** Which scorer versions gave the verdicts; a mixed report says so instead of hiding it. */
function ScorerLine({ uses }: { uses: ReturnType<typeof analyse>["scorers"] }) {
  const text = scorerNote(uses);
  if (!text) return null;
  const mixed = text.startsWith("Mixed");
  return (
    <p className={mixed ? "eval-warning" : "muted"} data-testid="eval-scorers" data-mixed={mixed}>
      {text}
    </p>
  );
}

function Report({ hidden }: { hidden: boolean }) {
  const evaluation = useStudio((s) => s.evaluation);
  const results = useStudio((s) => s.evalResults);
  const questions = useStudio((s) => s.evalQuestions);
  const names = useMemo(() => evaluation?.strategies.map(strategyName) ?? [], [evaluation]);
  const report = useMemo(
    () => (evaluation ? analyse(evaluation, results) : null),
    [evaluation, results],
  );
  // Every question of the evaluation is a row, run or not (after a reload too), in its order.
  const items = useMemo(
    () => [...new Set([...questions.map((q) => q.id), ...results.map((r) => r.item)])],
    [questions, results],
  );
  if (!evaluation || !report) return null;
  const rows = report.strategies;
  const code = scorerKind(evaluation.scorer.id).runsCode;
  const stamp = new Date(evaluation.createdAt).toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return (
    <section
      className="eval-card"
      aria-label="Report"
      hidden={hidden}
      data-testid="eval-report-card"
    >
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
          data-testid="eval-export-report-csv"
          title="One row per strategy: intervals and the comparison with the Conductor"
          onClick={() => download(reportCsv(report), `eval-report-${stamp}.csv`)}
        >
          Report CSV
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
            title="One row per Conductor sample, with its reward (docs/training.md gives trainer shapes)"
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
      <p className="muted" data-testid="eval-provenance">
        Dataset {evaluation.dataset.hash} · {evaluation.repeats} repeat(s) · choice seed{" "}
        {evaluation.seed} · intervals: {report.bootstrap.resamples} bootstrap resamples, seed{" "}
        {report.bootstrap.seed}
      </p>
      {oldScorerNote(evaluation.scorer) && (
        <p className="warning" data-testid="old-scorer-note">
          {oldScorerNote(evaluation.scorer)}
        </p>
      )}
      <div className="row">
        <ScorerLine uses={report.scorers} />
        <RescoreControl />
      </div>
      {code && <CodeRuntimePanel />}
      <CacheSummary rows={rows} />
      {/* Wider than the column at 1024 px and below: it scrolls sideways inside the card. */}
      <div
        className="table-scroll"
        data-testid="eval-report-scroll"
        // A scrolling region is reached and scrolled from the keyboard too.
        tabIndex={0}
        role="region"
        aria-label="Strategies, scrolls sideways"
      >
        <ReportTable rows={rows} metric={code ? "pass@1" : "Accuracy"} />
      </div>
      <ComparisonPanel comparisons={report.comparisons} />
      <CategoryTable rows={report.categories} strategies={names} />
      <ParetoPlot rows={rows} />
      <QuestionMatrix results={latestResults(results)} strategies={names} items={items} />
      {code && <CodeResults results={results} />}
      <EvalDiffPanel />
      <Table1Panel />
    </section>
  );
}

/** The Evaluate mode: a question set through several strategies, scored and compared. */
export default function EvaluateView() {
  const setOpen = useStudio((s) => s.setEvalOpen);
  const resumable = useStudio((s) => s.evalResumable);
  const phase = useStudio((s) => s.evalPhase);
  const evaluation = useStudio((s) => s.evaluation);
  const openItem = useStudio((s) => s.evalOpenItem);
  useEffect(() => {
    void findResumable();
  }, []);
  // A full-screen view owns the keyboard: the studio under it is inert, focus comes in on open
  // and goes back to the Evaluate button on close, Escape closes.
  const close = useCallback(() => setOpen(false), [setOpen]);
  const busy = phase === "running" || phase === "paused";
  return (
    <Modal
      className="evaluate"
      testId="evaluate-view"
      onClose={close}
      label="Evaluate"
      fallback="[data-testid=open-evaluate]"
    >
      <header className="row">
        <h2>Evaluate</h2>
        <span className="muted">
          A question set through the Conductor, each worker alone and fixed teams, scored.
        </span>
        <button type="button" data-testid="evaluate-close" onClick={close}>
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
        <div className="eval-setup">
          {busy && evaluation ? (
            // While it runs, its setup stays in view, read-only.
            <SetupSummary
              evaluation={evaluation}
              title="This evaluation (read-only while it runs)"
            />
          ) : (
            <>
              {resumable && (
                <SetupSummary evaluation={resumable.evaluation} title="The stopped evaluation" />
              )}
              <SourcePicker />
              <MappingEditor />
              <StrategyPicker />
            </>
          )}
        </div>
        <div className="eval-results">
          {openItem && <ItemView key={`${openItem.item}\n${openItem.strategy}`} {...openItem} />}
          <Report hidden={openItem !== null} />
        </div>
      </div>
    </Modal>
  );
}
