/** A point in flow coordinates. */
export interface Point {
  x: number;
  y: number;
}

/** A node's box in flow coordinates: top-left corner and size. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A horizontal or vertical run of a route, from `a` to `b`. */
export interface Run {
  a: Point;
  b: Point;
}

/**
 * How many pixels the axis-aligned segment p-q runs on top of `run`: both horizontal (or both
 * vertical) within 3 px of each other, the length their extents share; 0 otherwise.
 */
export function runOverlap(p: Point, q: Point, run: Run): number {
  const near = (u: number, v: number) => Math.abs(u - v) < 3;
  const shared = (p1: number, p2: number, q1: number, q2: number) =>
    Math.max(
      0,
      Math.min(Math.max(p1, p2), Math.max(q1, q2)) - Math.max(Math.min(p1, p2), Math.min(q1, q2)),
    );
  const { a, b } = run;
  if (near(p.y, q.y) && near(a.y, b.y) && near(p.y, a.y)) return shared(p.x, q.x, a.x, b.x);
  if (near(p.x, q.x) && near(a.x, b.x) && near(p.x, a.x)) return shared(p.y, q.y, a.y, b.y);
  return 0;
}

/** The rectangle grown by `by` on every side. */
export function inflate(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, width: r.width + 2 * by, height: r.height + 2 * by };
}

/** Where an edge leaves a step (the middle of its right side) and enters one (left side). */
export function handlesOf(source: Rect, target: Rect): { from: Point; to: Point } {
  return {
    from: { x: source.x + source.width, y: source.y + source.height / 2 },
    to: { x: target.x, y: target.y + target.height / 2 },
  };
}

/**
 * Whether the segment a-b passes through the inside of `r` (touching its border does not count).
 * Liang-Barsky clipping: the segment's parameter range inside the box must be non-empty.
 */
export function segmentHitsRect(a: Point, b: Point, r: Rect): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  const checks: [number, number][] = [
    [-dx, a.x - r.x],
    [dx, r.x + r.width - a.x],
    [-dy, a.y - r.y],
    [dy, r.y + r.height - a.y],
  ];
  for (const [p, q] of checks) {
    if (p === 0) {
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 >= t1) return false;
  }
  return true;
}

/** Whether any segment of the polyline passes through any of the rectangles. */
export function polylineHits(points: readonly Point[], rects: readonly Rect[]): boolean {
  for (let i = 1; i < points.length; i++)
    for (const r of rects) if (segmentHitsRect(points[i - 1]!, points[i]!, r)) return true;
  return false;
}

/**
 * Points along the bezier that React Flow draws by default from a right-side handle to a
 * left-side one (its `getBezierPath` with curvature 0.25), so the engine can tell whether the
 * default curve would pass under a node.
 */
export function bezierPoints(from: Point, to: Point, samples = 32): Point[] {
  const offset = (distance: number) =>
    distance >= 0 ? 0.5 * distance : 0.25 * 25 * Math.sqrt(-distance);
  const c1 = { x: from.x + offset(to.x - from.x), y: from.y };
  const c2 = { x: to.x - offset(to.x - from.x), y: to.y };
  const points: Point[] = [];
  for (let i = 0; i <= samples; i++) {
    const t = i / samples;
    const u = 1 - t;
    const [w0, w1, w2, w3] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    points.push({
      x: w0 * from.x + w1 * c1.x + w2 * c2.x + w3 * to.x,
      y: w0 * from.y + w1 * c1.y + w2 * c2.y + w3 * to.y,
    });
  }
  return points;
}

/** The polyline without repeated points and without middle points of straight runs. */
export function simplify(points: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 1e-6 && Math.abs(last.y - p.y) < 1e-6) continue;
    const prev = out[out.length - 2];
    if (prev && last && collinear(prev, last, p)) out[out.length - 1] = p;
    else out.push(p);
  }
  return out;
}

function collinear(a: Point, b: Point, c: Point): boolean {
  return Math.abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) < 1e-6;
}

/**
 * An SVG path through the points with each corner rounded (radius at most `radius`, and at most
 * half of either segment at that corner, so short steps stay smooth).
 */
export function roundedPath(points: readonly Point[], radius = 10): string {
  const [first, ...rest] = points;
  if (!first) return "";
  const fmt = (p: Point) => `${round(p.x)},${round(p.y)}`;
  const parts = [`M ${fmt(first)}`];
  for (let i = 0; i < rest.length; i++) {
    const corner = rest[i]!;
    const next = rest[i + 1];
    const prev = points[i]!;
    if (!next) {
      parts.push(`L ${fmt(corner)}`);
      break;
    }
    const r = Math.min(radius, dist(prev, corner) / 2, dist(corner, next) / 2);
    parts.push(`L ${fmt(toward(corner, prev, r))}`);
    parts.push(`Q ${fmt(corner)} ${fmt(toward(corner, next, r))}`);
  }
  return parts.join(" ");
}

function dist(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

function toward(from: Point, to: Point, by: number): Point {
  const d = dist(from, to);
  return d === 0
    ? from
    : { x: from.x + ((to.x - from.x) * by) / d, y: from.y + ((to.y - from.y) * by) / d };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * The route with its ends moved onto the handles React Flow measured (they can sit a pixel or
 * two from the rectangle's side): the first and last points move, and their neighbours follow
 * along the axis they share, so the route stays made of horizontal and vertical runs.
 */
export function anchorRoute(route: readonly Point[], from: Point, to: Point): Point[] {
  const out = route.map((p) => ({ ...p }));
  if (out.length < 2) return [from, to];
  const follow = (end: Point, next: Point, at: Point) => {
    if (Math.abs(end.y - next.y) < 1e-6) next.y = at.y;
    else if (Math.abs(end.x - next.x) < 1e-6) next.x = at.x;
    end.x = at.x;
    end.y = at.y;
  };
  // A route of one horizontal run is redrawn as a single segment between the two handles.
  if (out.length === 2) return [from, to];
  follow(out[0]!, out[1]!, from);
  follow(out[out.length - 1]!, out[out.length - 2]!, to);
  return out;
}
