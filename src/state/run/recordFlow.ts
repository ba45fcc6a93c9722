// A run record drawn on the canvas: rounds and nested workflows as boxes around their steps.
import { findWorker } from "../../engine/conductor/shown-ids.ts";
import type { Edge, Node } from "@xyflow/react";
import { docFromSteps } from "../../engine/graph/document.ts";
import { edgesOf } from "../../engine/graph/edges.ts";
import { layoutDoc } from "../../engine/graph/layout.ts";
import { roundSeesPrevious } from "../../engine/exec/messages.ts";
import type { RoundRecord, StepRecord } from "../../engine/schema/record.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { StepFlowNode, StepNodeData } from "./flow.ts";
import { resultFields } from "./flow.ts";
import type { Focus } from "../slices/run.ts";
import { roundSums } from "../../engine/run/totals.ts";
import { DEFAULT_NODE_SIZE } from "../../engine/constants.ts";

/** A round or nested workflow drawn as a box around its steps. */
export interface GroupNodeData extends Record<string, unknown> {
  label: string;
  tokens: number;
  cost: number;
  calls: number;
  unpricedCalls: number;
  estimated: boolean;
  kind: "round" | "nested";
  /** The workflow this group shows, for "Edit" (absent on the editable round's backdrop). */
  focus?: Focus;
}
export type GroupFlowNode = Node<GroupNodeData, "group-box">;
export type CanvasNode = StepFlowNode | GroupFlowNode;

const NODE = DEFAULT_NODE_SIZE;
const PAD = { x: 24, top: 44, bottom: 24 };

/** Node data for a recorded step (a later round's or a nested one): shown read-only. */
export function recordNodeData(
  step: StepRecord,
  isLast: boolean,
  pool: Worker[],
  nestedKey: string,
  expanded: ReadonlySet<string>,
): StepNodeData {
  // Past the depth cap, a step given to the Conductor itself is one call to its model, no nesting.
  const pastDepthCap =
    findWorker(pool, step.worker)?.kind === "conductor" &&
    !step.nested &&
    (step.status === "done" || step.status === "failed");
  return {
    index: step.index,
    isLast,
    ...(pastDepthCap ? { pastDepthCap } : {}),
    workerName: findWorker(pool, step.worker)?.name ?? step.workerName,
    subtask: step.subtask,
    ...resultFields(step),
    readonly: true,
    nested: step.nested
      ? {
          steps: step.nested.rounds[0]?.steps.length ?? 0,
          expanded: expanded.has(nestedKey),
          key: nestedKey,
        }
      : null,
  };
}

export { roundSums } from "../../engine/run/totals.ts";

interface Out {
  nodes: CanvasNode[];
  edges: Edge[];
}

/**
 * Draws one recorded round as a group at (x, y): a box, its steps inside (read-only), their access
 * edges, and, recursively, the expanded nested workflows of self-selected steps below their step.
 * Returns the box's size.
 */
function drawRound(
  out: Out,
  round: RoundRecord,
  groupId: string,
  label: string,
  kind: GroupNodeData["kind"],
  at: { x: number; y: number },
  pool: Worker[],
  expanded: ReadonlySet<string>,
  focus: Focus,
): { width: number; height: number } {
  let i = 0;
  const doc = docFromSteps(round.steps, () => `${groupId}/s${i++}`);
  const positions = layoutDoc(doc, { nodeSize: NODE });
  const xs = Object.values(positions);
  const width = Math.max(...xs.map((p) => p.x + NODE.width), NODE.width) + 2 * PAD.x;
  const height = Math.max(...xs.map((p) => p.y + NODE.height), NODE.height) + PAD.top + PAD.bottom;
  out.nodes.push({
    id: groupId,
    type: "group-box",
    position: at,
    data: { label, kind, focus, ...roundSums(round) },
    style: { width, height },
    draggable: false,
    selectable: false,
    deletable: false,
    zIndex: -1,
  });
  for (const e of edgesOf(doc))
    out.edges.push({
      id: e.id,
      source: e.source,
      target: e.target,
      className: e.bundle ? "edge-bundle" : "edge-direct",
      deletable: false,
    });
  let below = at.y + height + 40;
  doc.steps.forEach((s, index) => {
    const record = round.steps[index]!;
    const p = positions[s.id]!;
    const nestedKey = `${s.id}/nested`;
    out.nodes.push({
      id: s.id,
      type: "step",
      parentId: groupId,
      extent: "parent",
      position: { x: p.x + PAD.x, y: p.y + PAD.top },
      data: recordNodeData(record, index === doc.steps.length - 1, pool, nestedKey, expanded),
      draggable: false,
      connectable: false,
      deletable: false,
    });
    const inner = record.nested?.rounds[0];
    if (inner && expanded.has(nestedKey)) {
      const size = drawRound(
        out,
        inner,
        nestedKey,
        `Nested workflow of step ${index + 1}`,
        "nested",
        { x: at.x + p.x, y: below },
        pool,
        expanded,
        { parent: [...focus.parent, { round: focus.round, step: index }], round: 0 },
      );
      out.edges.push({
        id: `${s.id}=>nested`,
        source: s.id,
        target: nestedKey,
        className: "edge-nested",
        type: "smoothstep",
        zIndex: 1,
        deletable: false,
        label: "plans and runs",
      });
      below += size.height + 40;
    }
  });
  return { width, height };
}

/**
 * The parts of the canvas that come from the run record rather than the editable document:
 * refinement rounds after the first (to the right, each a group) with a "previous round" edge
 * where a round shows the previous one, and the expanded nested workflows of self-selected steps.
 */
export function recordFlow(
  rounds: readonly RoundRecord[],
  right: number,
  pool: Worker[],
  expanded: ReadonlySet<string>,
  mainNested: { stepId: string; step: StepRecord; y: number; x: number }[],
): Out {
  const out: Out = { nodes: [], edges: [] };
  let x = right + 120;
  let previous = "";
  rounds.forEach((round, r) => {
    if (r === 0 || round.steps.length === 0) return;
    const id = `round-${r}`;
    const size = drawRound(out, round, id, `Round ${r + 1}`, "round", { x, y: 0 }, pool, expanded, {
      parent: [],
      round: r,
    });
    const steps = round.steps.map((s) => ({
      worker: s.worker,
      subtask: s.subtask,
      access: s.access,
    }));
    if (roundSeesPrevious(steps))
      out.edges.push({
        id: `${previous || "round-0"}=>${id}`,
        source: previous || "round-0",
        target: id,
        className: "edge-previous",
        zIndex: 1,
        label: "previous round",
        deletable: false,
      });
    previous = id;
    x += size.width + 120;
  });
  for (const m of mainNested) {
    const inner = m.step.nested?.rounds[0];
    const key = `${m.stepId}/nested`;
    if (!inner || !expanded.has(key)) continue;
    drawRound(
      out,
      inner,
      key,
      `Nested workflow of step ${m.step.index + 1}`,
      "nested",
      { x: m.x, y: m.y },
      pool,
      expanded,
      { parent: [{ round: 0, step: m.step.index }], round: 0 },
    );
    out.edges.push({
      id: `${m.stepId}=>nested`,
      source: m.stepId,
      target: key,
      className: "edge-nested",
      type: "smoothstep",
      zIndex: 1,
      deletable: false,
      label: "plans and runs",
    });
  }
  return out;
}
