import { useState } from "react";
import { ENDING_TEXT, EndReason, endReasonOf } from "../../engine/errors.ts";
import { answerOf } from "../../engine/run/answer.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { selectPhase } from "../../state/slices/selectors.ts";
import type { StudioState } from "../../state/slices/store.ts";
import { useStudio } from "../../state/slices/store.ts";
import { CopyButton } from "../ui/CopyButton.tsx";
import { Markdown } from "../ui/Markdown.tsx";

/** Ends with no answer to show: the panel says why instead (the engine's ending texts). */
const UNANSWERED: ReadonlySet<EndReason> = new Set<EndReason>([
  "step_error",
  "plan_error",
  "cancelled",
  "budget",
  "no_conductor",
  "setup_error",
]);

/** Why a run that answered ended, where rounds make it worth saying (docs/protocol.md §1.6). */
function endNote(record: RunRecord): string | null {
  const rounds = record.rounds.filter((r) => r.steps.length > 0).length;
  if (record.endReason === EndReason.budget) return ENDING_TEXT.budget;
  if (record.endReason === EndReason.accepted)
    return `The Conductor accepted the answer of round ${rounds}.`;
  if (record.endReason === EndReason.round_cap)
    return `Stopped after ${rounds} rounds: the cap on refinement rounds.`;
  return null;
}

// Strings, not the record: tokens that change no answer leave the panel alone while streaming.
const selectAnswer = (s: StudioState) => answerOf(s.record);
const selectEndReason = (s: StudioState) => s.record.endReason;
const selectEndNote = (s: StudioState) => endNote(s.record);

/** The workflow's answer: the last step's output (docs/protocol.md §1.1), and why the run ended. */
export function AnswerPanel() {
  const answer = useStudio(selectAnswer);
  const endReason = useStudio(selectEndReason);
  const note = useStudio(selectEndNote);
  const phase = useStudio(selectPhase);
  // The last answer shown stays, marked stale, while a new plan or run is under way.
  const [previous, setPrevious] = useState(answer);
  if (answer && answer !== previous) setPrevious(answer);
  const stale = !answer && phase !== "idle" ? previous : null;
  const ended = endReasonOf(endReason);
  const reason = ended && UNANSWERED.has(ended) ? ENDING_TEXT[ended] : undefined;
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
