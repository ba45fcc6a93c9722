import type { GraphLabel, NodeLabel } from "@dagrejs/dagre";
import { visibleSteps } from "../schema/workflow.ts";
import type { Position, WorkflowDoc } from "./document.ts";
import { DEFAULT_NODE_SIZE } from "../constants.ts";

type Dagre = typeof import("@dagrejs/dagre");

// dagre is ~17 KB gzipped: a chunk of its own, loaded on demand, keeps it out of the studio's
// first load (a 250 KB budget). Once loaded, the layout below stays synchronous.
let dagre: Dagre | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

/**
 * Loads the layout engine (dagre) once; every later call returns the same promise. A failed load
 * is forgotten, so the next call tries again.
 */
export function loadLayout(): Promise<void> {
  loading ??= import("@dagrejs/dagre").then(
    (m) => {
      dagre = m;
      for (const listener of listeners) listener();
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether `layoutDoc` can lay out steps now (the layout engine has loaded). */
export function layoutLoaded(): boolean {
  return dagre !== undefined;
}

/** Calls `listener` once the layout engine has loaded; returns the unsubscribe function. */
export function onLayoutLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface Size {
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Size of a node the caller has not measured. */
  nodeSize?: Size;
  /** Measured sizes by step id, where known. */
  sizes?: Record<string, Size>;
  /** Gap between columns (dependency ranks). */
  rankGap?: number;
  /** Gap between nodes in one column. */
  nodeGap?: number;
}

/**
 * Positions for every step: the user-set ones from `doc.positions` untouched, the others from a
 * left-to-right dagre layout by dependency, so a step is right of every step it sees. Positions are
 * top-left corners (what React Flow expects). Layout edges are the visible earlier steps; an `"all"`
 * step gets an edge from each earlier step, so it lands right of all of them.
 * A workflow with steps needs the layout engine loaded first (`loadLayout`); without it this throws.
 */
export function layoutDoc(doc: WorkflowDoc, options: LayoutOptions = {}): Record<string, Position> {
  if (doc.steps.length === 0) return {};
  if (!dagre) throw new Error("layoutDoc: the layout engine is not loaded (await loadLayout())");
  const { Graph, layout } = dagre;
  const fallback = options.nodeSize ?? DEFAULT_NODE_SIZE;
  const sizeOf = (id: string): Size => options.sizes?.[id] ?? fallback;
  const g = new Graph<GraphLabel, NodeLabel, object>();
  g.setGraph({
    rankdir: "LR",
    ranksep: options.rankGap ?? 80,
    nodesep: options.nodeGap ?? 40,
    marginx: 0,
    marginy: 0,
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const step of doc.steps) g.setNode(step.id, { ...sizeOf(step.id) });
  doc.steps.forEach((step, index) => {
    for (const i of visibleSteps(step.access, index)) {
      const source = doc.steps[i];
      if (source) g.setEdge(source.id, step.id);
    }
  });
  layout(g);
  const positions: Record<string, Position> = {};
  for (const step of doc.steps) {
    // dagre gives centres; subtract half the size to get the top-left corner.
    const node = g.node(step.id);
    const size = sizeOf(step.id);
    positions[step.id] = { x: (node.x ?? 0) - size.width / 2, y: (node.y ?? 0) - size.height / 2 };
  }
  orderColumns(doc, positions);
  for (const step of doc.steps) {
    const user = doc.positions[step.id];
    if (user) positions[step.id] = { x: user.x, y: user.y };
  }
  return positions;
}

/**
 * Within each column of the automatic layout, earlier steps above later ones: dagre orders a
 * column to shorten edges, which can draw step 2 above step 1. The column's slots stay; the steps
 * are dealt into them in workflow order.
 */
function orderColumns(doc: WorkflowDoc, positions: Record<string, Position>): void {
  const columns = new Map<number, string[]>();
  for (const step of doc.steps) {
    const x = Math.round(positions[step.id]!.x);
    columns.set(x, [...(columns.get(x) ?? []), step.id]);
  }
  for (const ids of columns.values()) {
    const slots = ids.map((id) => positions[id]!.y).sort((a, b) => a - b);
    ids.forEach((id, i) => (positions[id] = { x: positions[id]!.x, y: slots[i]! }));
  }
}

/** The "tidy up" action: forgets every user-set position, so the automatic layout places all steps. */
export function tidy(doc: WorkflowDoc): WorkflowDoc {
  return Object.keys(doc.positions).length === 0 ? doc : { ...doc, positions: {} };
}

/**
 * The layout after an edit that keeps the steps on screen where they were: user-set positions
 * first, then each step's previous automatic position, and the automatic layout only for steps
 * that had none. Connecting or disconnecting two steps then moves nothing else.
 */
export function stickyLayout(
  doc: WorkflowDoc,
  previous: Readonly<Record<string, Position>>,
  options: LayoutOptions = {},
): Record<string, Position> {
  const fresh = layoutDoc(doc, options);
  const positions: Record<string, Position> = {};
  for (const step of doc.steps)
    positions[step.id] = doc.positions[step.id] ?? previous[step.id] ?? fresh[step.id]!;
  return positions;
}
