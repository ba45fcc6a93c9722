import { formatCost } from "../../engine/cost.ts";

/** "12.3 s", "2 min 5 s"; "–" when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "–";
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatDate(at: number): string {
  return new Date(at).toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function formatBytes(n: number | null): string {
  if (n === null) return "?";
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

export { formatCost };

export const KIND_LABELS: Record<string, string> = {
  planned: "planned",
  edited: "edited",
  manual: "built by hand",
  rerun: "re-run",
  retry: "retry",
  resumed: "resumed",
  imported: "imported",
  evaluation: "evaluation item",
};
