import { formatCost } from "../../engine/cost.ts";
import { describeSkipped } from "../../engine/eval/skipped.ts";
import {
  cancelEvaluation,
  pauseEvaluation,
  resumeEvaluation,
} from "../../state/eval/evalController.ts";
import { useStudio } from "../../state/slices/store.ts";

const eta = (ms: number | null) =>
  ms === null ? "—" : ms < 60_000 ? `${Math.ceil(ms / 1000)} s` : `${Math.ceil(ms / 60_000)} min`;

const ENDED: Record<string, string> = {
  finished: "Finished",
  cancelled: "Cancelled",
  cost_cap: "Stopped at the spending cap",
};

/** The cost so far: unknown (never $0) where calls had no price, "≥ $x" where some had one. */
function costText(cost: number, unpriced: number): string {
  if (!unpriced) return formatCost(cost);
  const calls = `${unpriced} call${unpriced === 1 ? "" : "s"} unpriced`;
  return cost > 0 ? `≥ ${formatCost(cost)}, ${calls}` : `cost unknown (${calls})`;
}

/** done/total, time left and cost so far, with pause, resume and cancel. */
export function EvalProgressBar() {
  const progress = useStudio((s) => s.evalProgress);
  const phase = useStudio((s) => s.evalPhase);
  const unpriced = useStudio((s) => s.evalResults.reduce((n, r) => n + (r.unpricedCalls ?? 0), 0));
  if (!progress) return null;
  const pct = progress.total ? (progress.done / progress.total) * 100 : 0;
  const live = phase === "running" || phase === "paused";
  const label =
    phase === "paused"
      ? progress.running
        ? `Pausing: stopping ${progress.running} item(s)`
        : "Paused"
      : phase === "running"
        ? "Running"
        : // Shown again after a stop (no run in this session's hands): stopped, never "Running".
          (ENDED[phase] ?? "Stopped");
  return (
    <div
      className="eval-progress"
      data-testid="eval-progress"
      data-phase={phase}
      data-running={progress.running}
    >
      <div
        className="bar"
        role="progressbar"
        aria-label="Evaluation progress"
        aria-valuetext={`${progress.done} of ${progress.total} items`}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
      >
        <div style={{ width: `${pct}%` }} />
      </div>
      <span data-testid="eval-done">
        {progress.done}/{progress.total}
      </span>
      {progress.errors > 0 && (
        <span
          className="eval-errors"
          data-testid="eval-errors"
          title="Items whose calls failed: not counted as wrong; Resume runs them again"
        >
          {progress.errors} errored
        </span>
      )}
      <span>{label}</span>
      {live && <span>time left {eta(progress.etaMs)}</span>}
      <span data-testid="eval-cost">{costText(progress.cost, unpriced)}</span>
      {phase === "running" && (
        <button type="button" data-testid="eval-pause" onClick={pauseEvaluation}>
          Pause
        </button>
      )}
      {phase === "paused" && (
        <button type="button" data-testid="eval-resume" onClick={resumeEvaluation}>
          Resume
        </button>
      )}
      {live && (
        <button type="button" data-testid="eval-cancel" onClick={cancelEvaluation}>
          Cancel
        </button>
      )}
      {progress.skipped.length > 0 && (
        <ul
          className="eval-skipped"
          data-testid="eval-skipped"
          aria-label="Skipped at the spending cap"
        >
          {progress.skipped.map((s) => (
            <li key={s.strategy}>{describeSkipped(s)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
