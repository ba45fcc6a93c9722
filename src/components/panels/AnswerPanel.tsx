import { useState } from "react";
import type { EndReason } from "../../engine/errors.ts";
import { ENDING_TEXT, endReasonOf } from "../../engine/errors.ts";
import { workflowAnswer } from "../../engine/exec/execute.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { selectPhase, selectRecord } from "../../state/selectors.ts";
import { useStudio } from "../../state/store.ts";
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

/** Why a run that answered ended, where rounds make it worth saying (SPEC 1.6). */
function endNote(record: RunRecord): string | null {
  const rounds = record.rounds.filter((r) => r.steps.length > 0).length;
  if (record.endReason === "budget") return ENDING_TEXT.budget;
  if (record.endReason === "accepted")
    return `The Conductor accepted the answer of round ${rounds}.`;
  if (record.endReason === "round_cap")
    return `Stopped after ${rounds} rounds: the cap on refinement rounds.`;
  return null;
}

/**
 * The answer the record's steps give (SPEC 1.1: the last step's output, or the last non-empty
 * one, of the last round that ran), not what a file's `answer` field claims; the field only where
 * no round has steps.
 */
export function answerOf(record: RunRecord): string | null {
  const ran = record.rounds.filter((r) => r.steps.length > 0);
  // A budget that stopped a later round midway: the last round that finished answers (SPEC 1.6).
  const round =
    record.endReason === "budget"
      ? ran.findLast((r) => r.steps.every((s) => s.status === "done"))
      : ran.at(-1);
  if (!round) return ran.length ? null : record.answer;
  return workflowAnswer(
    round.steps.map((s) =>
      s.status === "done" ? { status: "done", output: s.output } : { status: "failed" },
    ),
  );
}

/** The workflow's answer: the last step's output (SPEC 1.1), and why the run ended. */
export function AnswerPanel() {
  const record = useStudio(selectRecord);
  const phase = useStudio(selectPhase);
  const answer = answerOf(record);
  // The last answer shown stays, marked stale, while a new plan or run is under way.
  const [previous, setPrevious] = useState(answer);
  if (answer && answer !== previous) setPrevious(answer);
  const stale = !answer && phase !== "idle" ? previous : null;
  const ended = endReasonOf(record.endReason);
  const reason = ended && UNANSWERED.has(ended) ? ENDING_TEXT[ended] : undefined;
  const note = endNote(record);
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
