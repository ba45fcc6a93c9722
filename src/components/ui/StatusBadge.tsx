import { ENDING_TEXT } from "../../engine/errors.ts";
import type { StepStatus } from "../../engine/schema/record.ts";

const LABELS: Record<StepStatus, string> = {
  idle: "not run",
  queued: "queued",
  running: "running",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
  stale: "stale",
  interrupted: "interrupted",
  skipped: "skipped",
};

const TITLES: Partial<Record<StepStatus, string>> = {
  skipped: "Not run: a step it reads failed",
  stale: "An edit changed what this step reads: re-run it",
};

/** A step's status; `skipCode` says why a skipped step did not run (the budget: "not run"). */
export function StatusBadge({ status, skipCode }: { status: StepStatus; skipCode?: string }) {
  const budget = status === "skipped" && skipCode === "budget";
  return (
    <span
      className={`badge badge-${status}`}
      data-testid="status-badge"
      data-status={status}
      data-why={budget ? "budget" : undefined}
      title={budget ? `Not run: ${ENDING_TEXT.budget}` : TITLES[status]}
    >
      {budget ? "not run" : LABELS[status]}
    </span>
  );
}
