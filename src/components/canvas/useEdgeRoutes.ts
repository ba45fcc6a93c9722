import { useMemo, useState } from "react";
import type { Point, Rect } from "../../engine/graph/geometry.ts";
import { DEFAULT_NODE_SIZE } from "../../engine/constants.ts";
import type { RouteRequest } from "../../engine/graph/route.ts";
import { routeEdges } from "../../engine/graph/route.ts";
import type { CanvasNode } from "../../state/run/recordFlow.ts";

type Routes = Readonly<Record<string, Point[]>>;

/** A routing pass slower than this (ms) is not repeated on every frame of a drag. */
const SLOW_MS = 12;

/**
 * Detours for the edges whose default curve would pass under a step they do not join, from the
 * nodes as drawn (the user's positions, or the layout's, and the sizes React Flow measured).
 * Recomputed only when a box moves or resizes, or the edges change, not on every streamed token.
 */
export function useEdgeRoutes(
  nodes: readonly CanvasNode[],
  edges: readonly RouteRequest[],
): Routes {
  const rects = useMemo(() => rectsOf(nodes), [nodes]);
  const dragging = nodes.some((n) => n.dragging);
  const key = useMemo(
    () =>
      Object.entries(rects)
        .map(([id, r]) => `${id}:${r.x},${r.y},${r.width},${r.height}`)
        .join(";") +
      "#" +
      edges.map((e) => e.id).join(";"),
    [rects, edges],
  );
  // A mutable box, not state: the routes are a cache keyed by the geometry, not something to
  // render from.
  const [box] = useState<{ key: string; routes: Routes; ms: number }>(() => ({
    key: "",
    routes: {},
    ms: 0,
  }));
  return useMemo(() => {
    // A big workflow whose routing takes more than a frame keeps its detours (their ends follow
    // the handles) while a node is dragged, and routes again when the drag ends.
    if (box.key !== key && !(dragging && box.ms > SLOW_MS)) {
      const started = performance.now();
      box.routes = routeEdges(rects, edges);
      box.ms = performance.now() - started;
      box.key = key;
    }
    return box.routes;
  }, [box, key, rects, edges, dragging]);
}

/** The boxes of the step nodes in flow coordinates (nested ones offset by their group's corner). */
function rectsOf(nodes: readonly CanvasNode[]): Record<string, Rect> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const rects: Record<string, Rect> = {};
  for (const n of nodes) {
    if (n.type !== "step") continue;
    const parent = n.parentId ? byId.get(n.parentId) : undefined;
    rects[n.id] = {
      x: Math.round(n.position.x + (parent?.position.x ?? 0)),
      y: Math.round(n.position.y + (parent?.position.y ?? 0)),
      width: Math.round(n.measured?.width ?? n.width ?? DEFAULT_NODE_SIZE.width),
      height: Math.round(n.measured?.height ?? n.height ?? DEFAULT_NODE_SIZE.height),
    };
  }
  return rects;
}
