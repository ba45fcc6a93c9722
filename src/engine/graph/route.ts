import type { Point, Rect } from "./geometry.ts";
import { bezierPoints, handlesOf, inflate, polylineHits, simplify } from "./geometry.ts";

export interface RouteOptions {
  /** Distance kept between a detour and the boxes it passes (the first lane). */
  clearance?: number;
  /** Length of the straight run out of the source handle and into the target handle. */
  stub?: number;
  /** Extra distance per lane: detours that would run on top of each other move out by this. */
  laneGap?: number;
  /** How many lanes to try before accepting an overlap. */
  lanes?: number;
  /** Cost of one bend, in pixels of length: fewer bends read more easily than a shorter path. */
  bendCost?: number;
}

const DEFAULTS: Required<RouteOptions> = {
  clearance: 18,
  stub: 18,
  laneGap: 10,
  lanes: 8,
  bendCost: 60,
};

/** An edge to route between two of the rectangles, by id. */
export interface RouteRequest {
  id: string;
  source: string;
  target: string;
}

/**
 * Detours for the edges whose default curve (React Flow's bezier from the source's right side to
 * the target's left side) would pass under a node that is not one of its two ends. Each detour is
 * a polyline of horizontal and vertical runs from the source handle to the target handle that
 * passes through no node's rectangle (its own ends included, apart from the handles). Edges whose
 * curve is clear are left out: they keep the curve. Detours are found shortest first, and one
 * that would run along another (not at a shared end) moves out to the next lane, so nested
 * detours read as nested arcs instead of one line. Pure; positions are whatever the caller has,
 * user-dragged or laid out.
 */
export function routeEdges(
  rects: Readonly<Record<string, Rect>>,
  edges: readonly RouteRequest[],
  options: RouteOptions = {},
): Record<string, Point[]> {
  const o = { ...DEFAULTS, ...options };
  const all = Object.entries(rects);
  const blocked = edges.filter((e) => {
    const source = rects[e.source];
    const target = rects[e.target];
    if (!source || !target) return false;
    const { from, to } = handlesOf(source, target);
    const others = all.filter(([id]) => id !== e.source && id !== e.target).map(([, r]) => r);
    return polylineHits(bezierPoints(from, to), others);
  });
  const span = (e: RouteRequest) => {
    const { from, to } = handlesOf(rects[e.source]!, rects[e.target]!);
    return Math.abs(to.x - from.x) + Math.abs(to.y - from.y);
  };
  const order = [...blocked].sort((a, b) => span(a) - span(b) || a.id.localeCompare(b.id));
  const obstacles = all.map(([, r]) => r);
  const placed: { edge: RouteRequest; points: Point[] }[] = [];
  const routes: Record<string, Point[]> = {};
  for (const edge of order) {
    const { from, to } = handlesOf(rects[edge.source]!, rects[edge.target]!);
    let chosen: Point[] | null = null;
    for (let lane = 0; lane < o.lanes; lane++) {
      const points = routeAround(from, to, obstacles, { ...o, lane });
      if (!points) continue;
      chosen ??= points;
      if (!placed.some((p) => runsAlong(edge, points, p.edge, p.points))) {
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
 * A polyline of horizontal and vertical runs from `from` (a right-side handle) to `to` (a
 * left-side handle) that keeps `clearance + lane * laneGap` from every obstacle wherever it can
 * and passes through none, or null when the obstacles leave no way. The route leaves `from`
 * rightwards and enters `to` rightwards. A shortest path over the grid of lines beside the
 * obstacles, with a cost per bend.
 */
export function routeAround(
  from: Point,
  to: Point,
  obstacles: readonly Rect[],
  options: RouteOptions & { lane?: number } = {},
): Point[] | null {
  const o = { ...DEFAULTS, ...options };
  const away = o.clearance + (options.lane ?? 0) * o.laneGap;
  // Runs may pass closer than `away` (through a narrow channel) but never closer than this.
  const near = Math.min(o.clearance, o.stub) / 2;
  const walls = obstacles.map((r) => inflate(r, near));
  const start = { x: from.x + o.stub, y: from.y };
  const goal = { x: to.x - o.stub, y: to.y };
  const xs = gridLines(
    [start.x, goal.x, ...obstacles.flatMap((r) => [r.x - away, r.x + r.width + away])],
    obstacles.flatMap((r) => [r.x, r.x + r.width]),
    away + near,
  );
  const ys = gridLines(
    [start.y, goal.y, ...obstacles.flatMap((r) => [r.y - away, r.y + r.height + away])],
    obstacles.flatMap((r) => [r.y, r.y + r.height]),
    away + near,
  );
  const path = shortestPath(xs, ys, walls, start, goal, o.bendCost);
  return path ? simplify([from, ...path, to]) : null;
}

/**
 * The sorted distinct lines, plus the middle of each channel between box sides narrower than
 * `narrow` (where the lines beside the boxes would be too close to the other side).
 */
function gridLines(lines: number[], sides: number[], narrow: number): number[] {
  const snap = (v: number) => Math.round(v * 2) / 2;
  const edges = [...new Set(sides.map(snap))].sort((a, b) => a - b);
  const mids = edges
    .slice(1)
    .flatMap((v, i) => (v - edges[i]! < narrow ? [(v + edges[i]!) / 2] : []));
  return [...new Set([...lines, ...mids].map(snap))].sort((a, b) => a - b);
}

const DIRS = [
  [1, 0],
  [0, 1],
  [-1, 0],
  [0, -1],
] as const;

/**
 * A* over (grid point, heading): the start heads right, the goal is entered heading right (else
 * one more bend), and the Manhattan distance to the goal is the estimate (never above the cost).
 */
function shortestPath(
  xs: number[],
  ys: number[],
  walls: readonly Rect[],
  start: Point,
  goal: Point,
  bendCost: number,
): Point[] | null {
  const nx = xs.length;
  const ny = ys.length;
  const sx = xs.indexOf(Math.round(start.x * 2) / 2);
  const sy = ys.indexOf(Math.round(start.y * 2) / 2);
  const gx = xs.indexOf(Math.round(goal.x * 2) / 2);
  const gy = ys.indexOf(Math.round(goal.y * 2) / 2);
  const at = (i: number, j: number): Point => ({ x: xs[i]!, y: ys[j]! });
  if (walls.some((w) => inside(at(sx, sy), w) || inside(at(gx, gy), w))) return null;
  const { right, down } = blockedSteps(xs, ys, walls);
  const key = (i: number, j: number, d: number) => (j * nx + i) * 4 + d;
  const cost = new Float64Array(nx * ny * 4).fill(Infinity);
  const back = new Int32Array(nx * ny * 4).fill(-1);
  const h = (i: number, j: number) => Math.abs(xs[i]! - goal.x) + Math.abs(ys[j]! - goal.y);
  const heap = new MinHeap();
  cost[key(sx, sy, 0)] = 0;
  heap.push(h(sx, sy), key(sx, sy, 0));
  let best = -1;
  while (heap.size) {
    const k = heap.pop()[1];
    const c = cost[k]!;
    const d = k % 4;
    const cell = (k - d) / 4;
    const i = cell % nx;
    const j = (cell - i) / nx;
    // Entering the goal heading anywhere but right already paid for its last bend.
    if (i === gx && j === gy) {
      best = k;
      break;
    }
    for (let nd = 0; nd < 4; nd++) {
      if (nd === (d + 2) % 4) continue;
      const [di, dj] = DIRS[nd]!;
      const ni = i + di;
      const nj = j + dj;
      if (ni < 0 || nj < 0 || ni >= nx || nj >= ny) continue;
      const blocked = dj === 0 ? right[j * nx + Math.min(i, ni)] : down[Math.min(j, nj) * nx + i];
      if (blocked) continue;
      const step = Math.abs(xs[ni]! - xs[i]!) + Math.abs(ys[nj]! - ys[j]!);
      const nk = key(ni, nj, nd);
      const endBend = ni === gx && nj === gy && nd !== 0 ? bendCost : 0;
      const nc = c + step + (nd === d ? 0 : bendCost) + endBend;
      if (nc < cost[nk]!) {
        cost[nk] = nc;
        back[nk] = k;
        heap.push(nc + h(ni, nj), nk);
      }
    }
  }
  if (best < 0) return null;
  const points: Point[] = [];
  for (let k = best; k >= 0; k = back[k]!) {
    const cell = (k - (k % 4)) / 4;
    points.push(at(cell % nx, Math.floor(cell / nx)));
  }
  return points.reverse();
}

/**
 * Which grid steps pass through a wall: `right[j * nx + i]` for the run from column i to i + 1
 * on row j, `down[j * nx + i]` for the run from row j to j + 1 on column i. Touching a wall's
 * side is allowed.
 */
function blockedSteps(xs: number[], ys: number[], walls: readonly Rect[]) {
  const nx = xs.length;
  const right = new Uint8Array(nx * ys.length);
  const down = new Uint8Array(nx * ys.length);
  for (const w of walls) {
    const [x0, x1, y0, y1] = [w.x, w.x + w.width, w.y, w.y + w.height];
    for (let j = 0; j < ys.length; j++) {
      const y = ys[j]!;
      for (let i = 0; i < nx; i++) {
        const x = xs[i]!;
        const nextX = xs[i + 1];
        const nextY = ys[j + 1];
        if (y > y0 && y < y1 && nextX !== undefined && x < x1 && nextX > x0) right[j * nx + i] = 1;
        if (x > x0 && x < x1 && nextY !== undefined && y < y1 && nextY > y0) down[j * nx + i] = 1;
      }
    }
  }
  return { right, down };
}

function inside(p: Point, r: Rect): boolean {
  return p.x > r.x && p.x < r.x + r.width && p.y > r.y && p.y < r.y + r.height;
}

/**
 * Whether route `a` runs along route `b` (collinear runs overlapping by more than a few pixels),
 * apart from where they must meet: the run into a shared target and the run out of a shared
 * source.
 */
function runsAlong(ea: RouteRequest, a: Point[], eb: RouteRequest, b: Point[]): boolean {
  const shared = (p: Point[], e: RouteRequest, other: RouteRequest) => (i: number) =>
    (e.target === other.target && i >= p.length - 3) || (e.source === other.source && i <= 1);
  const skipA = shared(a, ea, eb);
  const skipB = shared(b, eb, ea);
  for (let i = 1; i < a.length; i++) {
    if (skipA(i - 1)) continue;
    for (let j = 1; j < b.length; j++) {
      if (skipB(j - 1)) continue;
      if (overlap(a[i - 1]!, a[i]!, b[j - 1]!, b[j]!)) return true;
    }
  }
  return false;
}

function overlap(a1: Point, a2: Point, b1: Point, b2: Point): boolean {
  const near = (p: number, q: number) => Math.abs(p - q) < 3;
  const shared = (p1: number, p2: number, q1: number, q2: number) =>
    Math.min(Math.max(p1, p2), Math.max(q1, q2)) - Math.max(Math.min(p1, p2), Math.min(q1, q2)) > 6;
  if (near(a1.y, a2.y) && near(b1.y, b2.y) && near(a1.y, b1.y))
    return shared(a1.x, a2.x, b1.x, b2.x);
  if (near(a1.x, a2.x) && near(b1.x, b2.x) && near(a1.x, b1.x))
    return shared(a1.y, a2.y, b1.y, b2.y);
  return false;
}

/** A binary min-heap of (priority, value) pairs. */
class MinHeap {
  private items: [number, number][] = [];
  get size(): number {
    return this.items.length;
  }
  push(priority: number, value: number): void {
    const items = this.items;
    items.push([priority, value]);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]![0] <= items[i]![0]) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }
  pop(): [number, number] {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && items[l]![0] < items[m]![0]) m = l;
        if (r < items.length && items[r]![0] < items[m]![0]) m = r;
        if (m === i) break;
        [items[m], items[i]] = [items[i]!, items[m]!];
        i = m;
      }
    }
    return top;
  }
}
