import { useState } from "react";
import { answerOf } from "../../engine/run/answer.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { selectPhase } from "../../state/selectors.ts";
import type { StudioState } from "../../state/store.ts";
import { useStudio } from "../../state/store.ts";
import { CopyButton } from "../ui/CopyButton.tsx";
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

// Strings, not the record: tokens that change no answer leave the panel alone while streaming.
const selectAnswer = (s: StudioState) => answerOf(s.record);
const selectEndReason = (s: StudioState) => s.record.endReason;
const selectEndNote = (s: StudioState) => endNote(s.record);

/** The workflow's answer: the last step's output (SPEC 1.1), and why the run ended. */
export function AnswerPanel() {
  const answer = useStudio(selectAnswer);
  const endReason = useStudio(selectEndReason);
  const note = useStudio(selectEndNote);
  const phase = useStudio(selectPhase);
  // The last answer shown stays, marked stale, while a new plan or run is under way.
  const [previous, setPrevious] = useState(answer);
  if (answer && answer !== previous) setPrevious(answer);
  const stale = !answer && phase !== "idle" ? previous : null;
  const reason = endReason ? REASONS[endReason] : undefined;
  const shown = answer ?? stale;
  return (
    <section className="panel answer-panel" aria-label="Answer">
      <div className="panel-title row">
        <span>Answer</span>
        {shown && <CopyButton text={shown} label="Copy the answer" testId="copy-answer" />}
      </div>
      {shown ? (
        <>
          {stale && (
            <p className="stale-note small" data-testid="answer-stale">
              From the previous run: a new {phase === "planning" ? "plan" : "run"} is under way.
            </p>
          )}
          <div
            data-testid="final-answer"
            data-stale={stale ? "true" : undefined}
            className={stale ? "stale-answer" : undefined}
          >
            <Markdown text={shown} />
          </div>
          {note && !stale && (
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
