import { beforeAll, describe, expect, it } from "vitest";
import type { WorkflowDoc } from "./document.ts";
import { edgesOf } from "./edges.ts";
import type { Point, Rect } from "./geometry.ts";
import { bezierPoints, handlesOf, polylineHits, runOverlap } from "./geometry.ts";
import { DEFAULT_NODE_SIZE } from "../constants.ts";
import { layoutDoc, loadLayout } from "./layout.ts";
import { routeAround, routeEdges } from "./route.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";

/** Every step's box at the automatic layout, with `moved` steps shifted by the given offsets. */
function rectsOf(doc: WorkflowDoc, moved: Record<string, Point> = {}): Record<string, Rect> {
  const pos = layoutDoc(doc);
  return Object.fromEntries(
    doc.steps.map((s) => {
      const p = pos[s.id]!;
      const d = moved[s.id] ?? { x: 0, y: 0 };
      return [s.id, { x: p.x + d.x, y: p.y + d.y, ...DEFAULT_NODE_SIZE }];
    }),
  );
}

/** What the canvas draws for each edge: its detour, or the default curve when it has none. */
function drawn(doc: WorkflowDoc, rects: Record<string, Rect>) {
  const edges = edgesOf(doc);
  const routes = routeEdges(rects, edges);
  return edges.map((e) => {
    const { from, to } = handlesOf(rects[e.source]!, rects[e.target]!);
    const others = doc.steps.filter((s) => s.id !== e.source && s.id !== e.target);
    return {
      edge: e,
      routed: e.id in routes,
      points: routes[e.id] ?? bezierPoints(from, to),
      others: others.map((s) => rects[s.id]!),
      from,
      to,
    };
  });
}

const CHAIN_THEN_ALL = makeDoc([[], [0], [1], [2], "all"]);

// dagre is loaded on demand (its own chunk in the studio).
beforeAll(() => loadLayout());

describe("routeEdges", () => {
  it("without detours, the 'all' step's edges of a chain pass under the steps between", () => {
    const rects = rectsOf(CHAIN_THEN_ALL);
    const ae = handlesOf(rects.a!, rects.e!);
    expect(polylineHits(bezierPoints(ae.from, ae.to), [rects.b!, rects.c!, rects.d!])).toBe(true);
  });

  it.each([
    ["at the automatic layout", {}],
    ["after step 3 is dragged sideways", { c: { x: 0, y: -260 } }],
    ["after step 2 is dragged down and step 4 up", { b: { x: 40, y: 120 }, d: { x: -30, y: -90 } }],
    ["after step 4 is dragged right, close to step 5", { d: { x: 40, y: 0 } }],
    ["after step 5 is dragged left of step 4", { e: { x: -500, y: 260 } }],
  ])(
    "no edge of a chain then an 'all' step passes under a step it does not join, %s",
    (_, moved) => {
      const rects = rectsOf(CHAIN_THEN_ALL, moved);
      const paths = drawn(CHAIN_THEN_ALL, rects);
      for (const p of paths) {
        expect(polylineHits(p.points, p.others), p.edge.id).toBe(false);
        expect(p.points[0], p.edge.id).toEqual(p.from);
        expect(p.points.at(-1), p.edge.id).toEqual(p.to);
      }
      expect(paths.filter((p) => p.routed).length).toBeGreaterThan(0);
    },
  );

  it("routes a column the user stacked by hand (a vertical layout) and an all-'all' workflow", () => {
    for (const doc of [CHAIN_THEN_ALL, makeDoc([[], "all", "all", "all", "all"])]) {
      const column: Record<string, Rect> = {};
      doc.steps.forEach((s, i) => {
        column[s.id] = { x: i * 40, y: i * (DEFAULT_NODE_SIZE.height + 60), ...DEFAULT_NODE_SIZE };
      });
      for (const rects of [rectsOf(doc), column]) {
        const paths = drawn(doc, rects);
        expect(paths.some((p) => p.routed)).toBe(true);
        for (const p of paths) expect(polylineHits(p.points, p.others), p.edge.id).toBe(false);
      }
    }
  });

  it("keeps detours off each other, apart from the last run into a shared target", () => {
    const rects = rectsOf(CHAIN_THEN_ALL);
    const routes = Object.values(routeEdges(rects, edgesOf(CHAIN_THEN_ALL)));
    expect(routes).toHaveLength(3);
    const runs = (points: Point[]) => points.slice(0, -1).map((a, i) => ({ a, b: points[i + 1]! }));
    for (const [i, a] of routes.entries())
      for (const b of routes.slice(i + 1)) {
        const along = runs(a.slice(0, -1)).reduce(
          (sum, r) => sum + runs(b.slice(0, -1)).reduce((t, q) => t + runOverlap(r.a, r.b, q), 0),
          0,
        );
        expect(along).toBeLessThan(6);
      }
  });

  it("leaves an edge whose curve is clear as a curve", () => {
    const doc = makeDoc([[], [], "all"]);
    expect(routeEdges(rectsOf(doc), edgesOf(doc))).toEqual({});
  });

  it("routes detours of horizontal and vertical runs that never cross their own ends", () => {
    const rects = rectsOf(CHAIN_THEN_ALL);
    for (const p of drawn(CHAIN_THEN_ALL, rects).filter((q) => q.routed)) {
      for (let i = 1; i < p.points.length; i++) {
        const [a, b] = [p.points[i - 1]!, p.points[i]!];
        expect(a.x === b.x || a.y === b.y, `${p.edge.id} run ${i}`).toBe(true);
      }
      // Inside its own ends only the first and last short runs (into the handles) may lie.
      const ends = [rects[p.edge.source]!, rects[p.edge.target]!];
      expect(polylineHits(p.points.slice(1, -1), ends), p.edge.id).toBe(false);
    }
  });

  it.each([
    ["beside it", { x: -520, y: 0 }],
    ["below and to the left", { x: -520, y: 200 }],
    ["below it, a little to the left", { x: -400, y: 220 }],
  ])(
    "draws an edge to a step the user moved to the left of its source (%s) as a short detour around both, not a loop through them",
    (_, moved) => {
      const doc = makeDoc([[], [0]]);
      const rects = rectsOf(doc, { b: moved });
      const [p] = drawn(doc, rects);
      expect(p!.routed).toBe(true);
      const ends = [rects.a!, rects.b!];
      expect(polylineHits(p!.points.slice(1, -1), ends)).toBe(false);
      // No longer than going once around both boxes' outline plus the stubs.
      let length = 0;
      for (let i = 1; i < p!.points.length; i++)
        length +=
          Math.abs(p!.points[i]!.x - p!.points[i - 1]!.x) +
          Math.abs(p!.points[i]!.y - p!.points[i - 1]!.y);
      const { width, height } = DEFAULT_NODE_SIZE;
      expect(length).toBeLessThan(
        Math.abs(p!.from.x - p!.to.x) + Math.abs(p!.from.y - p!.to.y) + 2 * (width + height),
      );
    },
  );

  it("gives nested detours their own lanes instead of one shared line", () => {
    const rects = rectsOf(CHAIN_THEN_ALL);
    const routes = routeEdges(rects, edgesOf(CHAIN_THEN_ALL));
    const far = (id: string) => {
      const ys = routes[id]!.map((p) => p.y);
      return Math.max(...ys.map((y) => Math.abs(y - 80)));
    };
    const lanes = ["a->e", "b->e", "c->e"].map(far);
    expect(new Set(lanes).size).toBe(3);
  });
});

describe("routeAround", () => {
  it("goes around a box between the two handles", () => {
    const box = { x: 100, y: -50, width: 100, height: 100 };
    const points = routeAround({ x: 0, y: 0 }, { x: 300, y: 0 }, [box]);
    expect(points).not.toBeNull();
    expect(polylineHits(points!, [box])).toBe(false);
  });

  it("returns null when the way out of the source is walled in", () => {
    const wall = { x: 5, y: -500, width: 50, height: 1000 };
    expect(routeAround({ x: 0, y: 0 }, { x: 300, y: 0 }, [wall])).toBeNull();
  });
});
