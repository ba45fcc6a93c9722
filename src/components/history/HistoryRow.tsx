import { memo, useState } from "react";
import type { RunMeta } from "../../engine/store/db-schema.ts";
import { deleteRuns, renameRun, starRun } from "../../state/run/historyController.ts";
import { formatTotalCost } from "../../engine/cost.ts";
import { KIND_LABELS, formatDate, formatDuration } from "./format.ts";
import { LinkButton } from "../ui/LinkButton.tsx";

interface Props {
  row: RunMeta;
  selected: boolean;
  isOpen: boolean;
  isLive: boolean;
  onOpen: (key: string) => void;
  onToggle: (key: string) => void;
  onExport: (key: string) => void;
}

/** One stored run in the history list. */
export const HistoryRow = memo(function HistoryRow(p: Props) {
  const { row } = p;
  const [renaming, setRenaming] = useState(false);
  const title = row.title || row.question || "(no question)";
  return (
    <div
      className={`history-row${p.isOpen ? " open" : ""}`}
      data-testid="history-entry"
      data-key={row.key}
      data-status={row.status}
      data-kind={row.kind}
    >
      <input
        type="checkbox"
        aria-label={`Select ${title}`}
        data-testid="history-select"
        checked={p.selected}
        onChange={() => p.onToggle(row.key)}
      />
      <button
        type="button"
        className="link star"
        aria-label={row.starred ? "Unstar" : "Star"}
        data-testid="history-star"
        aria-pressed={row.starred}
        onClick={() => void starRun(row.key, !row.starred)}
      >
        {row.starred ? "★" : "☆"}
      </button>
      <div className="history-main">
        {renaming ? (
          <input
            autoFocus
            defaultValue={row.title || row.question}
            aria-label="Run name"
            data-testid="history-rename-input"
            onBlur={() => setRenaming(false)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                void renameRun(row.key, e.currentTarget.value);
                setRenaming(false);
              } else if (e.key === "Escape") setRenaming(false);
            }}
          />
        ) : (
          <button
            type="button"
            className="link history-title"
            data-testid="history-open"
            title={row.question}
            onClick={() => p.onOpen(row.key)}
          >
            {title}
          </button>
        )}
        {/* Two lines show: what a glance needs (status, cost, size, time) comes first. */}
        <div className="muted small history-facts">
          <span className={`badge badge-run-${row.status}`} data-testid="history-status">
            {p.isLive ? "running…" : row.status}
          </span>
          <span data-testid="history-cost">
            {formatTotalCost({
              cost: row.cost,
              calls: row.calls ?? 0,
              unpricedCalls: row.unpricedCalls,
            })}
          </span>
          <span data-testid="history-tokens">{row.tokens.toLocaleString()} tok</span>
          <span>{formatDuration(row.durationMs)}</span>
          {row.evaluation ? (
            <span
              className="history-item"
              data-testid="history-item"
              title={`${row.evaluation.verdict} · ${row.evaluation.strategy} · item ${row.evaluation.item} · in ${row.evaluation.name}`}
            >
              <span className={`verdict verdict-${row.evaluation.verdict}`}>
                {row.evaluation.verdict}
              </span>{" "}
              · {row.evaluation.strategy} · item {row.evaluation.item}
              {row.evaluation.repeat ? ` #${row.evaluation.repeat + 1}` : ""} · in{" "}
              {row.evaluation.name}
            </span>
          ) : (
            <span data-testid="history-kind">{KIND_LABELS[row.kind] ?? row.kind}</span>
          )}
          <span>{formatDate(row.createdAt)}</span>
          <span>{row.steps} steps</span>
        </div>
      </div>
      <div className="history-actions">
        <LinkButton testId="history-rename" onClick={() => setRenaming(true)}>
          Rename
        </LinkButton>
        <button type="button" className="link" onClick={() => p.onExport(row.key)}>
          Export
        </button>
        <button
          type="button"
          className="link danger-text"
          data-testid="history-delete"
          disabled={p.isLive}
          onClick={() => void deleteRuns([row.key])}
        >
          Delete
        </button>
      </div>
    </div>
  );
});
