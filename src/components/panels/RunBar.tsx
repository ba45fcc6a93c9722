import { useShallow } from "zustand/react/shallow";
import { formatCost, formatTotalCost } from "../../engine/cost.ts";
import { planningCostOf } from "../../engine/run/totals.ts";
import type { RunKind } from "../../engine/schema/record.ts";
import { capWarning } from "../../engine/graph/edit.ts";
import { tidy } from "../../engine/graph/layout.ts";
import { Capture } from "../../engine/graph/history.ts";
import { cancelNow, runNow, showLiveRun } from "../../state/run/controller.ts";
import {
  selectCanRedo,
  selectCanUndo,
  selectDoc,
  selectInBackground,
  selectNotice,
  selectPhase,
} from "../../state/slices/selectors.ts";
import type { StudioState } from "../../state/slices/store.ts";
import { useStudio } from "../../state/slices/store.ts";
import { FocusBanner } from "./FocusBanner.tsx";
import { RunBanner } from "../history/RunBanner.tsx";
import { RunEstimate } from "./RunEstimate.tsx";
import { StartOrCancel } from "./StartOrCancel.tsx";

/** Undo and redo, as the bar shows them. */
const HISTORY_BUTTONS = [
  { action: "undo", label: "↶ Undo", title: "Undo (Ctrl+Z)" },
  { action: "redo", label: "↷ Redo", title: "Redo (Ctrl+Shift+Z)" },
] as const;

/** Planning and execution time apart: the time spent editing in between counts for neither. */
function durations(planningMs: number | null, executionMs: number | null): string | null {
  const parts = [];
  if (planningMs !== null) parts.push(`planning ${(planningMs / 1000).toFixed(1)} s`);
  if (executionMs !== null) parts.push(`running ${(executionMs / 1000).toFixed(1)} s`);
  return parts.length ? parts.join(" · ") : null;
}

/** How the totals of a run that continues another are introduced (they are its own calls only). */
const OWN_LABELS: Partial<Record<RunKind, string>> = {
  retry: "This retry",
  rerun: "This re-run",
  resumed: "This resumed run",
  edited: "This edited run",
};

/** The record's figures the bar shows: streamed tokens change none of them. */
const selectFigures = (s: StudioState) => ({
  totals: s.record.totals,
  planning: planningCostOf(s.record),
  planningMs: s.record.planningMs,
  executionMs: s.record.executionMs,
  parentId: s.record.parentId,
  kind: s.record.kind,
});

/** Run and cancel, editing actions, totals, and the notice line for refused edits and problems. */
export function RunBar() {
  const phase = useStudio(selectPhase);
  const doc = useStudio(selectDoc);
  const figures = useStudio(useShallow(selectFigures));
  // The "add a worker first" notice goes once there are workers.
  const notice = useStudio((s) => {
    const n = selectNotice(s);
    return n?.startsWith("Add at least one worker") && s.pool.length > 0 ? null : n;
  });
  // A run in flight while the screen shows another (an import, a History row): the toolbar's
  // Cancel would not belong to what is on screen, so the banner names that run instead.
  const background = useStudio(selectInBackground);
  const canUndo = useStudio(selectCanUndo);
  const canRedo = useStudio(selectCanRedo);
  const st = useStudio.getState;
  const warning = capWarning(doc, useStudio.getState().maxSteps);
  const t = figures.totals;
  const planning = figures.planning;
  const wall = durations(figures.planningMs, figures.executionMs);
  // A run that continues another counts only its own calls: say so beside the figures.
  const ownOnly = figures.parentId ? OWN_LABELS[figures.kind] : undefined;
  return (
    <div className="run-bar">
      <div className="row">
        <StartOrCancel
          running={phase === "running" && !background}
          cancelTestId="cancel"
          cancelLabel="Cancel"
          testId="run"
          disabled={phase !== "idle" || !doc.steps.length}
          onStart={() => void runNow()}
          title="Run the workflow (Ctrl+Enter)"
        >
          ▶ Run
        </StartOrCancel>
        <button type="button" data-testid="add-step" onClick={() => st().edit({ kind: "add" })}>
          + Step
        </button>
        {HISTORY_BUTTONS.map(({ action, label, title }) => (
          <button
            key={action}
            type="button"
            data-testid={action}
            disabled={!(action === "undo" ? canUndo : canRedo)}
            onClick={() => st()[action]()}
            title={title}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          onClick={() => {
            st().replaceDoc(tidy(st().history.present), Capture.Undoable);
            useStudio.getState().relayout();
          }}
          title="Lay the graph out again"
        >
          Tidy up
        </button>
        <span
          className="totals"
          data-testid="totals"
          // The line may end in an ellipsis: hovering gives the whole text.
          onMouseEnter={(e) => (e.currentTarget.title = e.currentTarget.textContent ?? "")}
        >
          {t.calls > 0 && (
            <>
              {ownOnly && (
                <span
                  data-testid="totals-own"
                  title="The calls of the run it continues are counted in that run (History)"
                >
                  {ownOnly} only:{" "}
                </span>
              )}
              {(t.promptTokens + t.completionTokens).toLocaleString()} tokens
              {t.estimated && (
                <span title="Some endpoints sent no usage: those counts are estimated.">*</span>
              )}
              {t.reasoningTokens ? (
                <span
                  data-testid="totals-reasoning"
                  title="Completion tokens the providers reported as spent reasoning"
                >
                  {" "}
                  (of which {t.reasoningTokens.toLocaleString()} reasoning)
                </span>
              ) : null}{" "}
              · <span data-testid="totals-cost">{formatTotalCost(t)}</span>
              {planning > 0 && planning < t.cost && (
                <span
                  data-testid="totals-planning-cost"
                  title="The part of the cost that the Conductor's plans made"
                >
                  {" "}
                  (incl. Conductor {formatCost(planning)})
                </span>
              )}
              {wall && ` · ${wall}`}
            </>
          )}
        </span>
      </div>
      {background && (
        <div className="focus-banner" role="status" data-testid="background-run">
          Your {phase === "planning" ? "plan" : "run"} goes on in the background (History marks it
          running…); the run on screen is another one.{" "}
          <button
            type="button"
            className="primary"
            data-testid="back-to-live"
            onClick={showLiveRun}
          >
            Back to it
          </button>{" "}
          <button
            type="button"
            className="danger"
            data-testid="cancel-background"
            onClick={cancelNow}
          >
            Cancel that {phase === "planning" ? "plan" : "run"}
          </button>
        </div>
      )}
      <RunBanner />
      <FocusBanner />
      <RunEstimate />
      {warning && <div className="warning">{warning}</div>}
      {notice && (
        <div className="notice" role="alert" data-testid="notice">
          {notice}
          <button
            type="button"
            className="link"
            onClick={() => st().setNotice(null)}
            aria-label="Dismiss"
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
