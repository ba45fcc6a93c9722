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
};

export function StatusBadge({ status }: { status: StepStatus }) {
  return (
    <span className={`badge badge-${status}`} data-testid="status-badge" data-status={status}>
      {LABELS[status]}
    </span>
  );
}
