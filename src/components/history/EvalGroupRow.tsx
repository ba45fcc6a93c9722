import { memo } from "react";
import type { EvalGroup } from "../../engine/store/history-view.ts";
import { UNTAGGED_EVAL } from "../../engine/store/history-view.ts";
import { formatTotalCost } from "../../engine/cost.ts";
import { formatDate } from "./format.ts";
import { LinkButton } from "../ui/LinkButton.tsx";

interface Props {
  group: EvalGroup;
  onOpen: (id: string) => void;
  /** Shows this evaluation's items, one row each (the kind filter set to items, searched by name). */
  onItems: (group: EvalGroup) => void;
}

/** "3/5 correct · 1 errored · 1 unscored": errored items (a failed call) are never "unscored". */
function verdictsText(g: EvalGroup): string {
  const scored = g.correct + g.wrong;
  const parts = [
    scored ? `${g.correct}/${scored} correct` : "",
    g.errored ? `${g.errored} errored` : "",
    g.unscored ? `${g.unscored} unscored` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "no items";
}

/** One evaluation in the history list: its items folded into one row that opens its report. */
export const EvalGroupRow = memo(function EvalGroupRow({ group, onOpen, onItems }: Props) {
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
          <span data-testid="history-evaluation-verdicts">{verdictsText(group)}</span>
          <span data-testid="history-cost">{formatTotalCost(group)}</span>
          <span>{group.tokens.toLocaleString()} tok</span>
          {group.strategies.length > 0 && <span>{group.strategies.join(", ")}</span>}
          <span>{formatDate(group.lastAt)}</span>
        </div>
      </div>
      <div className="history-actions">
        <LinkButton testId="history-evaluation-items-button" onClick={() => onItems(group)}>
          Items
        </LinkButton>
      </div>
    </div>
  );
});
