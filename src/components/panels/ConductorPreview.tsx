import { useMemo } from "react";
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import { selectPool, selectQuestion } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";

/**
 * The exact messages the Conductor will receive (docs/protocol.md §1.4): system, the filled
 * template, and the opening sentence of its reasoning (folded into the user turn where the backend
 * cannot continue an assistant message), shown like the worker preview.
 */
export function ConductorPreview() {
  const conductor = useStudio((s) => s.conductor);
  const pool = useStudio(selectPool);
  const question = useStudio(selectQuestion);
  const maxSteps = useStudio((s) => s.maxSteps);
  const text = useMemo(() => {
    const messages = buildConductorMessages({
      question: question || "(your question)",
      pool,
      maxSteps,
      namedWorkers: conductor.namedWorkers,
      // Neither backend the studio builds continues an assistant message (see backends.ts).
      continuesAssistant: false,
      template: conductor.template,
    });
    return messages.map((m) => `[${m.role}]\n${m.content}`).join("\n\n");
  }, [conductor.namedWorkers, conductor.template, pool, question, maxSteps]);
  return (
    <details className="worker-preview" data-testid="conductor-preview-box">
      <summary>What the Conductor will read</summary>
      <pre data-testid="conductor-preview" tabIndex={0}>
        {text}
      </pre>
    </details>
  );
}
