import { selectRecord } from "../../state/selectors.ts";
import { useStudio } from "../../state/store.ts";
import { Markdown } from "../ui/Markdown.tsx";

const REASONS: Record<string, string> = {
  step_error: "A step failed: retry it from the inspector, or edit the workflow.",
  plan_error: "The Conductor's plan could not be used.",
  cancelled: "The run was cancelled.",
  budget: "The run reached its budget of model calls.",
};

/** The workflow's answer: the last step's output (SPEC 1.1). */
export function AnswerPanel() {
  const record = useStudio(selectRecord);
  const reason = record.endReason ? REASONS[record.endReason] : undefined;
  return (
    <section className="panel answer-panel" aria-label="Answer">
      <div className="panel-title">Answer</div>
      {record.answer ? (
        <div data-testid="final-answer">
          <Markdown text={record.answer} />
        </div>
      ) : (
        <p className="muted" data-testid="no-answer">
          {reason ?? "Run the workflow: the last step's answer appears here."}
        </p>
      )}
    </section>
  );
}
