import type { RunRecord } from "../../engine/schema/record.ts";
import { selectRecord } from "../../state/selectors.ts";
import { useStudio } from "../../state/store.ts";
import { Markdown } from "../ui/Markdown.tsx";

const REASONS: Record<string, string> = {
  step_error: "A step failed: retry it from the inspector, or edit the workflow.",
  plan_error: "The Conductor's plan could not be used.",
  cancelled: "The run was cancelled.",
  budget: "The run reached its budget of model calls.",
};

/** Why a run that answered ended, where rounds make it worth saying (SPEC 1.6). */
function endNote(record: RunRecord): string | null {
  const rounds = record.rounds.filter((r) => r.steps.length > 0).length;
  if (record.endReason === "budget") return REASONS.budget!;
  if (record.endReason === "accepted")
    return `The Conductor accepted the answer of round ${rounds}.`;
  if (record.endReason === "round_cap")
    return `Stopped after ${rounds} rounds: the cap on refinement rounds.`;
  return null;
}

/** The workflow's answer: the last step's output (SPEC 1.1), and why the run ended. */
export function AnswerPanel() {
  const record = useStudio(selectRecord);
  const reason = record.endReason ? REASONS[record.endReason] : undefined;
  const note = endNote(record);
  return (
    <section className="panel answer-panel" aria-label="Answer">
      <div className="panel-title">Answer</div>
      {record.answer ? (
        <>
          <div data-testid="final-answer">
            <Markdown text={record.answer} />
          </div>
          {note && (
            <p className="muted small" data-testid="end-reason">
              {note}
            </p>
          )}
        </>
      ) : (
        <p className="muted" data-testid="no-answer">
          {reason ?? "Run the workflow: the last step's answer appears here."}
        </p>
      )}
    </section>
  );
}
