import { useMemo } from "react";
import { stepsOf } from "../../engine/graph/document.ts";
import { findWorker, shownIds } from "../../engine/conductor/ids.ts";
import { buildWorkerMessages, prefillModeOf } from "../../engine/exec/messages.ts";
import { visibleSteps } from "../../engine/schema/workflow.ts";
import { useShallow } from "zustand/react/shallow";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import type { StepResult } from "../../state/run.ts";
import { selectDoc, selectPool, selectQuestion } from "../../state/selectors.ts";
import { useStudio } from "../../state/store.ts";

/** What step `index` reads of each step: a finished output, a placeholder, or nothing (unseen). */
function readOutputs(
  doc: WorkflowDoc,
  results: Readonly<Record<string, StepResult>>,
  index: number,
): (string | undefined)[] {
  const step = doc.steps[index];
  if (!step) return [];
  const seen = new Set(visibleSteps(step.access, index));
  return doc.steps.map((s, i) => {
    if (!seen.has(i)) return undefined;
    const r = results[s.id];
    return r?.status === "done" && r.output
      ? r.output
      : `(response of step ${i + 1}, once it has run)`;
  });
}

/**
 * The exact message the step's worker will receive (SPEC 1.5), recomputed as the graph changes.
 * Steps that have not run yet show a placeholder where their response will go.
 */
export function WorkerPreview({ index }: { index: number }) {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const question = useStudio(selectQuestion);
  // Only the finished outputs this step reads: other steps' streaming tokens change none of them.
  const outputs = useStudio(useShallow((s) => readOutputs(s.history.present, s.results, index)));
  const text = useMemo(() => {
    const steps = stepsOf(doc);
    const step = steps[index];
    if (!step) return "";
    const messages = buildWorkerMessages({
      question: question || "(your question)",
      steps,
      workerIds: shownIds(pool),
      index,
      outputs,
      prefill: prefillModeOf(findWorker(pool, step.worker)),
    });
    return messages
      .map((m) => (messages.length > 1 ? `[${m.role}]\n${m.content}` : m.content))
      .join("\n\n");
  }, [doc, pool, question, outputs, index]);
  return (
    <details className="worker-preview" open>
      <summary>What this worker will read</summary>
      <pre data-testid="worker-preview" tabIndex={0}>
        {text}
      </pre>
    </details>
  );
}
