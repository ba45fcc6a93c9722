import { useMemo, useState } from "react";
import type { Point, Rect } from "../../engine/graph/geometry.ts";
import { DEFAULT_NODE_SIZE } from "../../engine/graph/layout.ts";
import type { RouteRequest } from "../../engine/graph/route.ts";
import { routeEdges } from "../../engine/graph/route.ts";
import type { CanvasNode } from "../../state/recordFlow.ts";

type Routes = Readonly<Record<string, Point[]>>;

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
  const [box] = useState<{ key: string; routes: Routes }>(() => ({ key: "", routes: {} }));
  return useMemo(() => {
    if (box.key !== key) {
      box.key = key;
      box.routes = routeEdges(rects, edges);
    }
    return box.routes;
  }, [box, key, rects, edges]);
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
