import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  applyNodeChanges,
  type Connection,
  type Edge,
  type NodeChange,
  type NodeTypes,
  type ReactFlowInstance,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { layoutDoc } from "../../engine/graph/layout.ts";
import { useStudio } from "../../state/store.ts";
import type { StepFlowNode } from "../../state/flow.ts";
import { toFlowEdges, toFlowNodes } from "../../state/flow.ts";
import { selectDoc, selectPool, selectResults, selectSelectedIds } from "../../state/selectors.ts";
import { StepNode } from "./StepNode.tsx";
import { useFileDrop } from "./useFileDrop.ts";

const nodeTypes: NodeTypes = { step: StepNode };
const DELETE_KEYS = ["Delete", "Backspace"];

/** The workflow graph: one node per step, one edge per visible earlier step. */
export function Canvas() {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const results = useStudio(selectResults);
  const selectedIds = useStudio(selectSelectedIds);
  const [nodes, setNodes] = useState<StepFlowNode[]>([]);
  const flow = useRef<ReactFlowInstance<StepFlowNode, Edge> | null>(null);
  const stepCount = doc.steps.length;

  const positions = useMemo(() => layoutDoc(doc), [doc]);
  useEffect(() => {
    setNodes((prev) => toFlowNodes(doc, positions, pool, results, selectedIds, prev));
  }, [doc, positions, pool, results, selectedIds]);

  const running = useMemo(
    () =>
      new Set(
        Object.entries(results)
          .filter(([, r]) => r.status === "running")
          .map(([id]) => id),
      ),
    [results],
  );
  const edges = useMemo(() => toFlowEdges(doc, running), [doc, running]);

  // Fit the view when the number of steps changes (a plan arrives, a step is added or removed).
  useEffect(() => {
    if (stepCount)
      requestAnimationFrame(() => void flow.current?.fitView({ padding: 0.2, duration: 0 }));
  }, [stepCount]);

  const onNodesChange = useCallback((changes: NodeChange<StepFlowNode>[]) => {
    // React Flow's bookkeeping (measured size, dragging positions) stays local; the document only
    // learns a position when a drag ends, so a whole drag is one undo step.
    setNodes((prev) =>
      applyNodeChanges(
        changes.filter((c) => c.type !== "remove"),
        prev,
      ),
    );
    const st = useStudio.getState();
    for (const c of changes) {
      if (c.type === "position" && c.dragging === false && c.position)
        st.edit(
          { kind: "setPosition", id: c.id, x: c.position.x, y: c.position.y },
          `drag:${c.id}`,
        );
    }
    if (changes.some((c) => c.type === "position" && c.dragging === false)) st.endEditGroup();
    const selection = changes.filter((c) => c.type === "select");
    if (selection.length) {
      const ids = new Set(st.selectedIds);
      for (const c of selection) {
        if (c.selected) ids.add(c.id);
        else ids.delete(c.id);
      }
      st.select([...ids]);
    }
  }, []);

  const onConnect = useCallback((c: Connection) => {
    if (c.source && c.target && c.source !== c.target)
      useStudio.getState().edit({ kind: "connect", source: c.source, target: c.target });
  }, []);

  const onEdgesDelete = useCallback((deleted: Edge[]) => {
    const st = useStudio.getState();
    for (const e of deleted) st.edit({ kind: "disconnect", source: e.source, target: e.target });
  }, []);

  const onNodesDelete = useCallback((deleted: StepFlowNode[]) => {
    useStudio.getState().edit({ kind: "delete", ids: deleted.map((n) => n.id) });
  }, []);

  const drop = useFileDrop();

  return (
    <div
      className={`canvas${drop.active ? " drop-active" : ""}`}
      data-testid="canvas"
      {...drop.handlers}
    >
      <ReactFlow<StepFlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onInit={(instance) => (flow.current = instance)}
        onNodesChange={onNodesChange}
        onConnect={onConnect}
        onEdgesDelete={onEdgesDelete}
        onNodesDelete={onNodesDelete}
        deleteKeyCode={DELETE_KEYS}
        fitView
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={20} />
        <Controls />
        {stepCount > 0 && <MiniMap pannable zoomable />}
      </ReactFlow>
      {stepCount === 0 && (
        <div className="canvas-empty">
          <p>No workflow yet.</p>
          <p>Ask the Conductor to plan one, add a step, or drop an exported run here.</p>
        </div>
      )}
      {drop.active && <div className="drop-overlay">Drop a Conductor Studio export to open it</div>}
    </div>
  );
}
