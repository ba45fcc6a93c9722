import type { Point, Rect, Run } from "./geometry.ts";
import { bezierPoints, handlesOf, inflate, polylineHits, runOverlap } from "./geometry.ts";
import type { RouteOptions } from "./grid.ts";
import { ROUTE_DEFAULTS, routeAround } from "./grid.ts";

export type { RouteOptions } from "./grid.ts";
export { routeAround } from "./grid.ts";

/** An edge to route between two of the rectangles, by id. */
export interface RouteRequest {
  id: string;
  source: string;
  target: string;
}

interface Placed {
  edge: RouteRequest;
  points: Point[];
}

/**
 * Detours for the edges whose default curve (React Flow's bezier from the source's right side to
 * the target's left side) would pass under, or within `clearance` of, a node that is not one of
 * its two ends, or would loop back to a target left of its source. Each detour is a polyline of horizontal and vertical runs from the source handle
 * to the target handle that passes through no node's rectangle (its own ends included, apart from
 * the handles). Edges whose curve is clear are left out: they keep the curve. Detours are found
 * shortest first; running on top of an earlier one (other than into a shared handle) costs extra,
 * and a detour that still would moves out to the next lane, so detours read as separate, nested
 * arcs, never as one line (two dashed lines on top of each other would look solid). Pure: the
 * positions are whatever the caller has, user-dragged or laid out.
 */
export function routeEdges(
  rects: Readonly<Record<string, Rect>>,
  edges: readonly RouteRequest[],
  options: RouteOptions = {},
): Record<string, Point[]> {
  const o = { ...ROUTE_DEFAULTS, ...options };
  const all = Object.entries(rects);
  const blocked = edges.filter((e) => {
    const source = rects[e.source];
    const target = rects[e.target];
    if (!source || !target) return false;
    const { from, to } = handlesOf(source, target);
    // A target left of its source: the curve from the right handle to the left one would swing
    // out and back through both boxes as a long loop; a detour goes around them instead.
    if (to.x < from.x + o.stub) return true;
    // A curve that only grazes a box reads as touching it, so it goes around too.
    const others = all
      .filter(([id]) => id !== e.source && id !== e.target)
      .map(([, r]) => inflate(r, o.clearance));
    return polylineHits(bezierPoints(from, to), others);
  });
  const span = (e: RouteRequest) => {
    const { from, to } = handlesOf(rects[e.source]!, rects[e.target]!);
    return Math.abs(to.x - from.x) + Math.abs(to.y - from.y);
  };
  const order = [...blocked].sort((a, b) => span(a) - span(b) || a.id.localeCompare(b.id));
  const obstacles = all.map(([, r]) => r);
  const placed: Placed[] = [];
  const routes: Record<string, Point[]> = {};
  for (const edge of order) {
    const { from, to } = handlesOf(rects[edge.source]!, rects[edge.target]!);
    const avoid = avoidFor(edge, from, to, placed, o);
    let chosen: Point[] | null = null;
    for (let lane = 0; lane < o.lanes; lane++) {
      const points = routeAround(from, to, obstacles, { ...o, lane, avoid });
      if (!points) continue;
      chosen ??= points;
      if (alongLength(points, avoid) < 6) {
        chosen = points;
        break;
      }
    }
    if (!chosen) continue;
    placed.push({ edge, points: chosen });
    routes[edge.id] = chosen;
  }
  return routes;
}

/**
 * The runs of earlier detours that this edge should not run along: all their runs, less where
 * they must meet it (the horizontal run into a shared target's
 * handle, and out of a shared source's).
 */
function avoidFor(
  edge: RouteRequest,
  from: Point,
  to: Point,
  placed: readonly Placed[],
  o: Required<RouteOptions>,
): Run[] {
  const reach = o.stub + o.clearance + o.lanes * o.laneGap;
  const runs: Run[] = [];
  for (const p of placed) {
    for (let i = 1; i < p.points.length; i++) {
      let a = p.points[i - 1]!;
      let b = p.points[i]!;
      const horizontal = Math.abs(a.y - b.y) < 1e-6;
      if (horizontal && p.edge.target === edge.target && Math.abs(a.y - to.y) < 3) {
        [a, b] = [
          { ...a, x: Math.min(a.x, to.x - reach) },
          { ...b, x: Math.min(b.x, to.x - reach) },
        ];
      }
      if (horizontal && p.edge.source === edge.source && Math.abs(a.y - from.y) < 3) {
        [a, b] = [
          { ...a, x: Math.max(a.x, from.x + reach) },
          { ...b, x: Math.max(b.x, from.x + reach) },
        ];
      }
      if (Math.abs(a.x - b.x) + Math.abs(a.y - b.y) > 1) runs.push({ a, b });
    }
  }
  return runs;
}

/** How many pixels of the polyline run along (on top of) the runs. */
function alongLength(points: readonly Point[], runs: readonly Run[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++)
    for (const run of runs) total += runOverlap(points[i - 1]!, points[i]!, run);
  return total;
}
