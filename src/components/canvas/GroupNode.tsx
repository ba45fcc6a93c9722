import { Handle, Position } from "@xyflow/react";
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { formatTotalCost } from "../../engine/cost.ts";
import type { GroupFlowNode } from "../../state/run/recordFlow.ts";
import { focusOn } from "../../state/slices/focus.ts";

/** A round or a nested workflow: a labelled box with its tokens and cost summed. */
export const GroupNode = memo(function GroupNode({ data }: NodeProps<GroupFlowNode>) {
  return (
    <div
      className={`group-box group-${data.kind}`}
      data-testid={`group-${data.kind}`}
      data-label={data.label}
    >
      <Handle type="target" position={Position.Left} />
      <div className="group-label">
        <strong>{data.label}</strong>
        <span className="muted small">
          {data.tokens.toLocaleString()} tok{data.estimated ? "*" : ""} · {formatTotalCost(data)}
        </span>
        {data.focus && (
          <button
            type="button"
            className="group-edit nodrag"
            data-testid="edit-group"
            title="Edit this workflow and re-run it in place"
            onClick={() => focusOn(data.focus!)}
          >
            Edit
          </button>
        )}
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});
