import { findWorker } from "../../engine/conductor/shown-ids.ts";
import { useMemo } from "react";
import { formatCost } from "../../engine/cost.ts";
import { stepsOf } from "../../engine/graph/document.ts";
import type { RunEstimate as Estimate, StepEstimate } from "../../engine/pool/cost-estimate.ts";
import { TYPICAL_OUTPUT_TOKENS, estimateRun } from "../../engine/pool/cost-estimate.ts";
import { selectDoc, selectPool, selectQuestion } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";
import { ConductorEstimate } from "./ConductorEstimate.tsx";
import "./run-estimate.css";

const tokens = (n: number) => n.toLocaleString("en-US");

function costCell(s: StepEstimate): string {
  if (s.pricing === "free") return "free";
  if (!s.cost) return s.pricing === "no_worker" ? "no worker" : "unknown price";
  return `≤ ${formatCost(s.cost.max)} (~${formatCost(s.cost.typical)})`;
}

function summary(e: Estimate): string {
  const total = e.promptTokens.max + e.outputTokens.max;
  const priced = e.steps.length - e.unpricedSteps;
  const cost =
    priced === 0
      ? "cost unknown"
      : `≤ ${formatCost(e.cost.max)} (typical ~${formatCost(e.cost.typical)})`;
  const unpriced = e.unpricedSteps
    ? ` + ${e.unpricedSteps} step${e.unpricedSteps === 1 ? "" : "s"} unpriced`
    : "";
  return `Estimate: ≤ ${tokens(total)} tokens · ${cost}${priced > 0 ? unpriced : ""}`;
}

/**
 * The pre-run estimate beside the Run button: upper bounds from each worker's max tokens and the
 * real prompts, a typical figure, and which steps have no price. Per-step figures on click.
 */
export function RunEstimate() {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const question = useStudio(selectQuestion);
  const modelLoaded = useStudio((s) => s.ibStatus === "ready");
  const estimate = useMemo(
    () => estimateRun({ question, steps: stepsOf(doc), pool }),
    [doc, pool, question],
  );
  if (!estimate.steps.length) return null;
  // Steps on an in-browser worker fail without a loaded model: say so before the run.
  const needsModel = modelLoaded
    ? []
    : doc.steps.flatMap((st, i) => (findWorker(pool, st.worker)?.kind === "webllm" ? [i + 1] : []));
  return (
    <span className="run-estimate" data-testid="run-estimate">
      {needsModel.length > 0 && (
        <span className="estimate-warning" role="status" data-testid="estimate-needs-model">
          Step{needsModel.length === 1 ? "" : "s"} {needsModel.join(", ")} run
          {needsModel.length === 1 ? "s" : ""} on the in-browser model, which is not loaded: load it
          first, from the worker in Settings → Workers or in Settings → Conductor.
        </span>
      )}
      <details>
        <summary
          data-testid="run-estimate-summary"
          title={`Upper bound: every step writes its max tokens. Typical: about ${TYPICAL_OUTPUT_TOKENS} tokens a step (the paper's ~1,820 tokens per question over ~3 steps).`}
        >
          {summary(estimate)}
          <ConductorEstimate answer={estimate.steps.at(-1)?.outputTokens} />
        </summary>
        <table data-testid="run-estimate-details">
          <thead>
            <tr>
              <th>Step</th>
              <th>Worker</th>
              <th>Prompt ≤</th>
              <th>Output ≤</th>
              <th>Cost</th>
            </tr>
          </thead>
          <tbody>
            {estimate.steps.map((s) => (
              <tr key={s.index} data-testid="run-estimate-step">
                <td>{s.index + 1}</td>
                <td>{s.workerName}</td>
                <td>{tokens(s.promptTokens.max)}</td>
                <td>{tokens(s.outputTokens.max)}</td>
                <td>{costCell(s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </span>
  );
}
