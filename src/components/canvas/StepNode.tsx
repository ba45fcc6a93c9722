import { Handle, Position } from "@xyflow/react";
import type { NodeProps } from "@xyflow/react";
import { memo } from "react";
import { formatCost } from "../../engine/cost.ts";
import type { StepFlowNode } from "../../state/run/flow.ts";
import { useStudio } from "../../state/slices/store.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { RetryNote, Thinking } from "../ui/Thinking.tsx";

const PREVIEW_CHARS = 600;

/** One workflow step on the canvas. Cheap to render: five of them stream at once. */
export const StepNode = memo(function StepNode({ data, selected }: NodeProps<StepFlowNode>) {
  const output =
    data.output.length > PREVIEW_CHARS ? `…${data.output.slice(-PREVIEW_CHARS)}` : data.output;
  return (
    <div
      className={`step-node status-${data.status}${selected ? " selected" : ""}${data.isLast ? " last" : ""}${data.readonly ? " readonly" : ""}`}
      data-testid="step-node"
      data-index={data.index}
    >
      <Handle type="target" position={Position.Left} isConnectable={!data.readonly} />
      <div className="step-head">
        <span className="step-number">{data.index + 1}</span>
        <span
          className={data.workerMissing ? "step-worker missing" : "step-worker"}
          title={
            data.workerMissing
              ? `${data.workerName}: choose a worker for this step in the inspector`
              : data.workerName
          }
        >
          {data.workerName}
        </span>
        <StatusBadge status={data.status} skipCode={data.skipCode} />
      </div>
      {data.isLast && <div className="step-final">→ answer to the user</div>}
      <div className="step-subtask" title={data.subtask}>
        {data.subtask || <em>No subtask yet</em>}
      </div>
      {data.pastDepthCap && (
        <div className="step-note small muted" data-testid="depth-cap-note">
          Nesting-depth cap reached: one plain call to the Conductor's model, no nested plan.
        </div>
      )}
      {data.reasoning && (
        <Thinking
          text={data.reasoning}
          streaming={data.status === "running" && !data.output}
          tail={PREVIEW_CHARS}
          testId="step-thinking"
        />
      )}
      {data.retry && <RetryNote retry={data.retry} testId="step-retry" />}
      {(output || data.error) && (
        <div
          className={`step-output nowheel nodrag${data.retry ? " abandoned" : ""}`}
          data-testid="step-output"
          title={
            data.retry
              ? "The attempt that wrote this was dropped; the retry starts over."
              : undefined
          }
          tabIndex={0}
          aria-label={`Output of step ${data.index + 1}`}
        >
          {data.error ? <span className="step-error">{data.error}</span> : output}
        </div>
      )}
      {data.tokens !== null && (
        <div className="step-stats">
          <span title={data.estimated ? "estimated: the server sent no usage" : "tokens in + out"}>
            {data.tokens.toLocaleString()} tok{data.estimated ? "*" : ""}
          </span>
          <span data-testid="step-cost">
            {data.unpriced ? "cost unknown" : formatCost(data.cost ?? 0)}
          </span>
          {data.cached && (
            <span
              className="step-cached"
              data-testid="step-cached"
              title="Answered from the response cache: no call, no cost"
            >
              cached
            </span>
          )}
          {data.latencyMs !== null && <span>{(data.latencyMs / 1000).toFixed(1)} s</span>}
        </div>
      )}
      {data.nested && (
        <button
          type="button"
          className="nested-toggle nodrag"
          data-testid="nested-toggle"
          aria-expanded={data.nested.expanded}
          onClick={() => useStudio.getState().toggleGroupExpanded(data.nested!.key)}
        >
          {data.nested.expanded ? "▾ Hide" : "▸ Show"} nested workflow ({data.nested.steps} steps)
        </button>
      )}
      <Handle type="source" position={Position.Right} isConnectable={!data.readonly} />
    </div>
  );
});
