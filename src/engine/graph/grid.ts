import type { Point, Rect, Run } from "./geometry.ts";
import { inflate, simplify } from "./geometry.ts";

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

export const ROUTE_DEFAULTS: Required<RouteOptions> = {
  clearance: 18,
  stub: 18,
  laneGap: 12,
  lanes: 8,
  bendCost: 60,
};

/** How much running along an earlier detour costs, per pixel, on top of the length itself. */
const ALONG_COST = 4;

/**
 * A polyline of horizontal and vertical runs from `from` (a right-side handle) to `to` (a
 * left-side handle) that keeps `clearance + lane * laneGap` from every obstacle wherever it can
 * and passes through none, or null when the obstacles leave no way. The route leaves `from`
 * rightwards and enters `to` rightwards. A shortest path over the grid of lines beside the
 * obstacles, with a cost per bend and per pixel run along one of the `avoid` runs (earlier
 * detours: crossing them is fine, running on top of them is not).
 */
export function routeAround(
  from: Point,
  to: Point,
  obstacles: readonly Rect[],
  options: RouteOptions & { lane?: number; avoid?: readonly Run[] } = {},
): Point[] | null {
  const o = { ...ROUTE_DEFAULTS, ...options };
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
  const path = shortestPath(xs, ys, walls, options.avoid ?? [], start, goal, o.bendCost);
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
  avoid: readonly Run[],
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
  const along = alongSteps(xs, ys, avoid);
  const key = (i: number, j: number, d: number) => (j * nx + i) * 4 + d;
  const cost = new Float64Array(nx * ny * 4).fill(Infinity);
  const back = new Int32Array(nx * ny * 4).fill(-1);
  const done = new Uint8Array(nx * ny * 4);
  const h = (i: number, j: number) => Math.abs(xs[i]! - goal.x) + Math.abs(ys[j]! - goal.y);
  const heap = new MinHeap();
  cost[key(sx, sy, 0)] = 0;
  heap.push(h(sx, sy), key(sx, sy, 0));
  let best = -1;
  while (heap.size) {
    const k = heap.pop()[1];
    // A state comes off the heap once per improvement; the first time is its best.
    if (done[k]) continue;
    done[k] = 1;
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
      const s = dj === 0 ? j * nx + Math.min(i, ni) : Math.min(j, nj) * nx + i;
      if (dj === 0 ? right[s] : down[s]) continue;
      const shared = dj === 0 ? along.right[s]! : along.down[s]!;
      const step = Math.abs(xs[ni]! - xs[i]!) + Math.abs(ys[nj]! - ys[j]!);
      const nk = key(ni, nj, nd);
      const endBend = ni === gx && nj === gy && nd !== 0 ? bendCost : 0;
      const nc = c + step + (nd === d ? 0 : bendCost) + endBend + ALONG_COST * shared;
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

/** How many pixels of each grid step (indexed as in `blockedSteps`) run along an `avoid` run. */
function alongSteps(xs: number[], ys: number[], avoid: readonly Run[]) {
  const nx = xs.length;
  const right = new Float64Array(nx * ys.length);
  const down = new Float64Array(nx * ys.length);
  // A horizontal run touches the steps of the rows within 3 px of it, between its ends; a
  // vertical one the steps of the columns near it.
  const mark = (
    lines: number[],
    along: number[],
    at: number,
    lo: number,
    hi: number,
    add: (line: number, step: number, by: number) => void,
  ) => {
    for (let j = 0; j < lines.length; j++) {
      if (Math.abs(lines[j]! - at) >= 3) continue;
      for (let i = 0; i + 1 < along.length; i++) {
        const by = Math.min(hi, along[i + 1]!) - Math.max(lo, along[i]!);
        if (by > 0) add(j, i, by);
      }
    }
  };
  for (const { a, b } of avoid) {
    if (Math.abs(a.y - b.y) < 3 && Math.abs(a.x - b.x) >= 3)
      mark(ys, xs, a.y, Math.min(a.x, b.x), Math.max(a.x, b.x), (j, i, by) => {
        right[j * nx + i]! += by;
      });
    else if (Math.abs(a.x - b.x) < 3)
      mark(xs, ys, a.x, Math.min(a.y, b.y), Math.max(a.y, b.y), (i, j, by) => {
        down[j * nx + i]! += by;
      });
  }
  return { right, down };
}

function inside(p: Point, r: Rect): boolean {
  return p.x > r.x && p.x < r.x + r.width && p.y > r.y && p.y < r.y + r.height;
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
