import { memo } from "react";
import type { EvalGroup } from "../../engine/store/history-view.ts";
import { UNTAGGED_EVAL } from "../../engine/store/history-view.ts";
import { formatCost, formatDate } from "./format.ts";

interface Props {
  group: EvalGroup;
  onOpen: (id: string) => void;
  /** Shows this evaluation's items, one row each (the kind filter set to items, searched by name). */
  onItems: (group: EvalGroup) => void;
}

/** One evaluation in the history list: its items folded into one row that opens its report. */
export const EvalGroupRow = memo(function EvalGroupRow({ group, onOpen, onItems }: Props) {
  const scored = group.correct + group.wrong;
  const untagged = group.id === UNTAGGED_EVAL;
  return (
    <div className="history-row eval-group" data-testid="history-evaluation" data-eval={group.id}>
      <span className="badge eval-badge" aria-hidden="true">
        Eval
      </span>
      <div className="history-main">
        <button
          type="button"
          className="link history-title"
          data-testid="history-evaluation-open"
          title={
            untagged ? "These items' evaluation is not stored" : "Open this evaluation's report"
          }
          disabled={untagged}
          onClick={() => onOpen(group.id)}
        >
          {group.name}
        </button>
        {/* Two lines show: size, accuracy and cost first. */}
        <div className="muted small history-facts">
          <span data-testid="history-evaluation-items">
            {group.items} item run{group.items === 1 ? "" : "s"}
          </span>
          <span>
            {scored ? `${group.correct}/${scored} correct` : "unscored"}
            {group.unscored && scored ? ` · ${group.unscored} unscored` : ""}
          </span>
          <span data-testid="history-cost">{formatCost(group.cost)}</span>
          <span>{group.tokens.toLocaleString()} tok</span>
          {group.strategies.length > 0 && <span>{group.strategies.join(", ")}</span>}
          <span>{formatDate(group.lastAt)}</span>
        </div>
      </div>
      <div className="history-actions">
        <button
          type="button"
          className="link"
          data-testid="history-evaluation-items-button"
          onClick={() => onItems(group)}
        >
          Items
        </button>
      </div>
    </div>
  );
});
