import type { Edge } from "@xyflow/react";
import { useMemo } from "react";
import type { RoundRecord } from "../../engine/schema/record.ts";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import type { Position } from "../../engine/graph/document.ts";
import type { StepNodeData } from "../../state/run/flow.ts";
import type { CanvasNode } from "../../state/run/recordFlow.ts";
import { recordFlow, roundSums } from "../../state/run/recordFlow.ts";
import { selectPool, selectQuestion, selectRecord } from "../../state/slices/selectors.ts";
import { useStudio } from "../../state/slices/store.ts";
import { isTop } from "../../state/slices/focus.ts";
import { DEFAULT_NODE_SIZE } from "../../engine/constants.ts";

const NO_ROUNDS: readonly RoundRecord[] = [];
const EMPTY_LAYER = {
  nodes: [] as CanvasNode[],
  edges: [] as Edge[],
  nestedOf: new Map<string, StepNodeData["nested"]>(),
};

const { width: NODE_W, height: NODE_H } = DEFAULT_NODE_SIZE;

/**
 * The record's layer of the canvas: later refinement rounds and expanded nested workflows, placed
 * around the editable workflow, and the nested-workflow toggle of each self-selected step.
 */
export function useRecordLayer(doc: WorkflowDoc, positions: Record<string, Position>) {
  const record = useStudio(selectRecord);
  const question = useStudio(selectQuestion);
  const pool = useStudio(selectPool);
  const runStepIds = useStudio((s) => s.runStepIds);
  const expanded = useStudio((s) => s.expandedGroups);
  const focus = useStudio((s) => s.focus);
  // While a later round or nested workflow is in the editor, the canvas shows it alone.
  const rounds = record.question === question && isTop(focus) ? record.rounds : NO_ROUNDS;
  // The common case, one round without nested workflows, draws nothing from the record: return
  // the same empty layer every frame so streaming does not rebuild nodes and edges.
  const simple = rounds.length <= 1 && !rounds[0]?.steps.some((st) => st.nested);
  const layerRounds = simple ? NO_ROUNDS : rounds;
  return useMemo(() => {
    const rounds = layerRounds;
    if (!rounds.length) return EMPTY_LAYER;
    const placed = Object.values(positions);
    const right = Math.max(0, ...placed.map((p) => p.x + NODE_W));
    const bottom = Math.max(0, ...placed.map((p) => p.y + NODE_H));
    const first = rounds[0];
    const nestedOf = new Map<string, StepNodeData["nested"]>();
    const mainNested = doc.steps.flatMap((st, i) => {
      const step = first?.steps[i];
      if (runStepIds[i] !== st.id || !step?.nested) return [];
      const key = `${st.id}/nested`;
      nestedOf.set(st.id, {
        steps: step.nested.rounds[0]?.steps.length ?? 0,
        expanded: expanded.has(key),
        key,
      });
      return [{ stepId: st.id, step, x: positions[st.id]?.x ?? 0, y: bottom + 80 }];
    });
    const layer = recordFlow(rounds, right, pool, expanded, mainNested);
    const nodes: CanvasNode[] = [...layer.nodes];
    if (layer.nodes.some((n) => n.id.startsWith("round-")) && placed.length) {
      // A backdrop for the editable first round, so rounds read as successive groups.
      const left = Math.min(...placed.map((p) => p.x)) - 24;
      const top = Math.min(...placed.map((p) => p.y)) - 44;
      nodes.unshift({
        id: "round-0",
        type: "group-box",
        position: { x: left, y: top },
        data: {
          label: "Round 1 (editable)",
          kind: "round",
          ...(first
            ? roundSums(first)
            : { tokens: 0, cost: 0, calls: 0, unpricedCalls: 0, estimated: false }),
        },
        style: { width: right - left + 24, height: bottom - top + 24 },
        draggable: false,
        selectable: false,
        deletable: false,
        zIndex: -1,
      });
    }
    return { nodes, edges: layer.edges, nestedOf };
  }, [layerRounds, pool, runStepIds, expanded, doc, positions]);
}
