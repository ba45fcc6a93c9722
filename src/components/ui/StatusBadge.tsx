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

export function StatusBadge({ status }: { status: StepStatus }) {
  return (
    <span
      className={`badge badge-${status}`}
      data-testid="status-badge"
      data-status={status}
      title={TITLES[status]}
    >
      {LABELS[status]}
    </span>
  );
}
