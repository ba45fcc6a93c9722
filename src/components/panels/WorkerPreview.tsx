import { useMemo } from "react";
import { stepsOf } from "../../engine/graph/document.ts";
import { findWorker, shownIds } from "../../engine/conductor/shown-ids.ts";
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import { buildWorkerMessages, prefillModeOf } from "../../engine/exec/messages.ts";
import { nestedQuestion } from "../../engine/exec/nested.ts";
import type { ChatMessage } from "../../engine/schema/usage.ts";
import { visibleSteps } from "../../engine/schema/workflow.ts";
import { useShallow } from "zustand/react/shallow";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import type { StepResult } from "../../state/slices/run.ts";
import { selectDoc, selectPool, selectQuestion } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";

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

const asText = (messages: ChatMessage[], roles: boolean) =>
  messages.map((m) => (roles ? `[${m.role}]\n${m.content}` : m.content)).join("\n\n");

/**
 * The exact message the step's worker will receive (docs/protocol.md §1.5), recomputed as the graph
 * changes. Steps that have not run yet show a placeholder where their response will go. A step
 * given to the Conductor itself shows what the Conductor reads instead: the nested plan's prompt
 * for that message (docs/protocol.md §1.6), as the runner builds it.
 */
export function WorkerPreview({ index }: { index: number }) {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const question = useStudio(selectQuestion);
  // Only the finished outputs this step reads: other steps' streaming tokens change none of them.
  const outputs = useStudio(useShallow((s) => readOutputs(s.history.present, s.results, index)));
  const conductor = useStudio((s) => s.conductor);
  const maxSteps = useStudio((s) => s.maxSteps);
  const self = findWorker(pool, doc.steps[index]?.worker ?? "")?.kind === "conductor";
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
    if (!self) return asText(messages, messages.length > 1);
    const user = messages.findLast((m) => m.role === "user")?.content ?? "";
    return asText(
      buildConductorMessages({
        question: nestedQuestion(user),
        pool,
        maxSteps,
        namedWorkers: conductor.namedWorkers,
        // Neither backend the studio builds continues an assistant message (see backends.ts).
        continuesAssistant: false,
        template: conductor.template,
      }),
      true,
    );
  }, [doc, pool, question, outputs, index, self, conductor, maxSteps]);
  return (
    <details className="worker-preview" open>
      <summary>
        {self
          ? "What the Conductor will read (it plans a nested workflow for this step)"
          : "What this worker will read"}
      </summary>
      <pre data-testid="worker-preview" tabIndex={0}>
        {text}
      </pre>
    </details>
  );
}
