import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  applyNodeChanges,
  type Connection,
  type Edge,
  type EdgeChange,
  type EdgeTypes,
  type NodeChange,
  type NodeTypes,
  type ReactFlowInstance,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { setHistoryOpen } from "../../state/run/historyController.ts";
import { useStudio } from "../../state/slices/store.ts";
import type { CanvasNode } from "../../state/run/recordFlow.ts";
import type { StepFlowNode } from "../../state/run/flow.ts";
import { toFlowEdges, toFlowNodes } from "../../state/run/flow.ts";
import {
  selectDoc,
  selectPhase,
  selectPool,
  selectResults,
  selectSelectedIds,
} from "../../state/slices/selectors.ts";
import { edgesOf } from "../../engine/graph/edges.ts";
import { layoutLoaded, loadLayout, onLayoutLoaded } from "../../engine/graph/layout.ts";
import { useFormerWorkers } from "../useFormerWorkers.ts";
import { modalOpen } from "../ui/modalLayer.ts";
import { EdgeLegend } from "./EdgeLegend.tsx";
import { GroupNode } from "./GroupNode.tsx";
import { RoutedEdge } from "./RoutedEdge.tsx";
import { StepNode } from "./StepNode.tsx";
import { useEdgeRoutes } from "./useEdgeRoutes.ts";
import { useRecordLayer } from "./useRecordLayer.ts";
import { useFileDrop } from "./useFileDrop.ts";
import { isExampleRun } from "../examples/examples.ts";
import { Welcome } from "./Welcome.tsx";
import { useFocusRescue } from "./useFocusRescue.ts";
import { useStickyLayout } from "./useStickyLayout.ts";

const nodeTypes: NodeTypes = { step: StepNode, "group-box": GroupNode };
const edgeTypes: EdgeTypes = { routed: RoutedEdge };
const DELETE_KEYS = ["Delete", "Backspace"];
/** React Flow's delete key listens on the whole document: under a full-screen view it deletes nothing. */
const deleteAllowed = () => Promise.resolve(!modalOpen());
/** The first fit, as every later one: never past the natural size (a one-step workflow at 2x). */
const FIT_VIEW = { padding: 0.2, maxZoom: 1 };

/**
 * The workflow graph, once the layout engine (a chunk of its own) has loaded. The studio's boot
 * awaits it before the first paint when the draft has steps; this covers steps that come sooner
 * (a plan or an import in the first moments) or a load that failed and is tried again.
 */
export function Canvas() {
  const ready = useSyncExternalStore(onLayoutLoaded, layoutLoaded);
  const empty = useStudio((s) => selectDoc(s).steps.length === 0);
  useEffect(() => {
    if (!ready) void loadLayout().catch(() => undefined);
  }, [ready]);
  if (ready || empty) return <WorkflowCanvas />;
  return <div className="canvas" data-testid="canvas" aria-busy="true" />;
}

/** The workflow graph: one node per step, one edge per visible earlier step. */
function WorkflowCanvas() {
  const doc = useStudio(selectDoc);
  const pool = useStudio(selectPool);
  const results = useStudio(selectResults);
  const selectedIds = useStudio(selectSelectedIds);
  const former = useFormerWorkers();
  const example = useStudio((s) => isExampleRun(s.record.id));
  const [nodes, setNodes] = useState<CanvasNode[]>([]);
  const flow = useRef<ReactFlowInstance<CanvasNode, Edge> | null>(null);
  const wrapper = useRef<HTMLDivElement | null>(null);
  useFocusRescue(wrapper);
  const planning = useStudio(selectPhase) === "planning";
  const stepCount = doc.steps.length;

  const positions = useStickyLayout(doc, planning);
  const layer = useRecordLayer(doc, positions);
  useEffect(() => {
    setNodes((prev) => {
      const steps = prev.filter((n): n is StepFlowNode => n.type === "step" && !n.data.readonly);
      const main = toFlowNodes(
        doc,
        positions,
        pool,
        results,
        selectedIds,
        steps,
        layer.nestedOf,
        former,
        example,
      );
      // Record-layer nodes keep the size React Flow measured for them.
      const measured = new Map(prev.map((n) => [n.id, n.measured]));
      const extra = layer.nodes.map((n) => ({ ...n, measured: measured.get(n.id) }));
      return [...extra, ...main];
    });
  }, [doc, positions, pool, results, selectedIds, layer, former, example]);

  // Results change every frame while steps stream; the running set only when a step starts or
  // ends. Keying on it keeps the edges array stable between those moments.
  const runningKey = Object.entries(results)
    .filter(([, r]) => r.status === "running")
    .map(([id]) => id)
    .join(" ");
  const running = useMemo(() => new Set(runningKey ? runningKey.split(" ") : []), [runningKey]);
  // Edge selection is React Flow ephemera, kept here: without it a clicked edge never becomes
  // selected (the edges are controlled), so Delete/Backspace could not remove it.
  const [selectedEdgeIds, setSelectedEdgeIds] = useState<ReadonlySet<string>>(() => new Set());
  // Edges whose default curve would pass under a step they do not join go around it instead.
  const graphEdges = useMemo(() => edgesOf(doc), [doc]);
  const routes = useEdgeRoutes(nodes, graphEdges);
  const edges = useMemo(() => {
    // Screen readers hear which steps an edge joins, not internal ids.
    const number = new Map(doc.steps.map((st, i) => [st.id, i + 1]));
    return [
      ...toFlowEdges(doc, running).map((e) => ({
        ...e,
        type: "routed",
        data: { ...e.data, route: routes[e.id] },
        ariaLabel: `step ${number.get(e.source)} to step ${number.get(e.target)}`,
        ...(selectedEdgeIds.has(e.id) && { selected: true }),
      })),
      ...layer.edges,
    ];
  }, [doc, running, selectedEdgeIds, layer, routes]);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    if (!changes.some((c) => c.type === "select" || c.type === "remove")) return;
    setSelectedEdgeIds((prev) => {
      const next = new Set(prev);
      for (const c of changes) {
        if (c.type === "select" && c.selected) next.add(c.id);
        else if (c.type === "select" || c.type === "remove") next.delete(c.id);
      }
      return next;
    });
  }, []);

  // Fit the view when steps come or go (a plan arrives, steps are added or removed, a round or
  // nested workflow appears), not on a drag or a new edge, which keep the view where the user
  // left it. An empty canvas goes back to the natural zoom (not a lone streamed step's zoom).
  const shapeKey = `${doc.steps
    .map((st) => st.id)
    .sort()
    .join("|")}#${layer.nodes.length}`;
  useEffect(() => {
    requestAnimationFrame(() => {
      if (stepCount) void flow.current?.fitView({ padding: 0.2, duration: 0, maxZoom: 1 });
      else void flow.current?.setViewport({ x: 0, y: 0, zoom: 1 });
    });
  }, [shapeKey, stepCount]);

  const onNodesChange = useCallback((changes: NodeChange<CanvasNode>[]) => {
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
      // The right column shows History or the inspector: picking a step asks for the inspector.
      if (st.historyOpen && selection.some((c) => c.selected)) setHistoryOpen(false);
    }
  }, []);

  const onConnect = useCallback((c: Connection) => {
    if (c.source && c.target && c.source !== c.target)
      useStudio.getState().edit({ kind: "connect", source: c.source, target: c.target });
  }, []);

  // One Delete press is one edit and one undo step: the selected steps and the selected edges
  // together. React Flow also lists every edge of a deleted step; those go with the step and must
  // not be cut first (cutting an "all" step's edge would rewrite its access as a list).
  const onDelete = useCallback(
    ({ nodes: gone, edges: cut }: { nodes: CanvasNode[]; edges: Edge[] }) => {
      const ids = gone.filter((n) => n.type === "step" && !n.data.readonly).map((n) => n.id);
      const edges = cut.map((e) => ({ source: e.source, target: e.target }));
      if (ids.length || edges.length) useStudio.getState().edit({ kind: "delete", ids, edges });
    },
    [],
  );

  const drop = useFileDrop();

  return (
    <div
      className={`canvas${drop.active ? " drop-active" : ""}`}
      data-testid="canvas"
      ref={wrapper}
      // Focus lands here when an edit takes away the focused node and no step is left to take it.
      tabIndex={-1}
      role="group"
      aria-label="Workflow canvas"
      {...drop.handlers}
    >
      <ReactFlow<CanvasNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onInit={(instance) => (flow.current = instance)}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onBeforeDelete={deleteAllowed}
        onDelete={onDelete}
        deleteKeyCode={DELETE_KEYS}
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={20} />
        <Controls />
        {stepCount > 0 && <MiniMap pannable zoomable ariaLabel="Mini map of the workflow" />}
      </ReactFlow>
      {stepCount === 0 && <Welcome />}
      {stepCount > 1 && <EdgeLegend />}
      {drop.active && <div className="drop-overlay">Drop a Conductor Studio export to open it</div>}
    </div>
  );
}
