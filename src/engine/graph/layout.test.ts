import { beforeAll, describe, expect, it } from "vitest";
import { edgesOf } from "./edges.ts";
import { DEFAULT_NODE_SIZE } from "../constants.ts";
import { layoutDoc, stickyLayout, tidy, loadLayout } from "./layout.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";

// dagre is loaded on demand (its own chunk in the studio).
beforeAll(() => loadLayout());

describe("layoutDoc", () => {
  it("places every step, dependants right of what they read", () => {
    const doc = makeDoc([[], [], "all", [2], [0]]);
    const pos = layoutDoc(doc);
    expect(Object.keys(pos).sort()).toEqual(["a", "b", "c", "d", "e"]);
    for (const edge of edgesOf(doc)) {
      const from = pos[edge.source];
      const to = pos[edge.target];
      expect(to && from && to.x > from.x + DEFAULT_NODE_SIZE.width, `${edge.id}`).toBe(true);
    }
  });

  it("stacks independent steps in one column without overlap", () => {
    const pos = layoutDoc(makeDoc([[], [], []]), { nodeSize: { width: 100, height: 50 } });
    const ys = ["a", "b", "c"].map((id) => pos[id]?.y ?? Number.NaN).sort((p, q) => p - q);
    expect(new Set(["a", "b", "c"].map((id) => pos[id]?.x)).size).toBe(1);
    expect((ys[1] ?? 0) - (ys[0] ?? 0)).toBeGreaterThanOrEqual(50);
    expect((ys[2] ?? 0) - (ys[1] ?? 0)).toBeGreaterThanOrEqual(50);
  });

  it("keeps user-set positions untouched and lays out the rest", () => {
    const doc = makeDoc([[], [0], [1]], { b: { x: -500, y: 1234 } });
    const pos = layoutDoc(doc);
    expect(pos.b).toEqual({ x: -500, y: 1234 });
    expect((pos.c?.x ?? 0) > (pos.a?.x ?? 0)).toBe(true);
  });

  it("uses measured sizes where given", () => {
    const doc = makeDoc([[], [0]]);
    const wide = layoutDoc(doc, { sizes: { a: { width: 1000, height: 50 } }, rankGap: 10 });
    expect((wide.b?.x ?? 0) - (wide.a?.x ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("handles an empty document", () => {
    expect(layoutDoc(makeDoc([]))).toEqual({});
  });
});

describe("tidy", () => {
  it("forgets user positions; a document without any is returned as is", () => {
    const doc = makeDoc([[]], { a: { x: 1, y: 1 } });
    expect(tidy(doc)).toEqual({ steps: doc.steps, positions: {} });
    const clean = makeDoc([[]]);
    expect(tidy(clean)).toBe(clean);
  });
});

describe("layoutDoc column order", () => {
  it("draws earlier steps above later ones in a column, whatever dagre prefers", () => {
    // Step c reads only a and e only b: dagre's crossing reduction tends to swap such columns.
    const shapes: Parameters<typeof makeDoc>[0][] = [
      [[], [], "all"],
      [[], [], [], [1], [0]],
      [[], [], [1], [0], "all"],
      [[], [], [], [2], [1], [0]],
    ];
    for (const shape of shapes) {
      const doc = makeDoc(shape);
      const pos = layoutDoc(doc);
      const ids = doc.steps.map((s) => s.id);
      for (const [i, a] of ids.entries())
        for (const b of ids.slice(i + 1)) {
          if (pos[a]!.x !== pos[b]!.x) continue;
          expect(pos[a]!.y, `${JSON.stringify(shape)}: ${a} above ${b}`).toBeLessThan(pos[b]!.y);
        }
    }
  });
});

describe("stickyLayout", () => {
  it("keeps every step where it was when an edge changes, and lays out only new steps", () => {
    const before = makeDoc([[], [], []]);
    const placed = layoutDoc(before);
    const connected = makeDoc([[], [0], []]);
    // The automatic layout alone would move step b right of a...
    expect(layoutDoc(connected).b).not.toEqual(placed.b);
    // ...the sticky one keeps it.
    expect(stickyLayout(connected, placed)).toEqual(placed);
    const grown = makeDoc([[], [0], [], [1]]);
    const next = stickyLayout(grown, placed);
    expect(next.d).toEqual(layoutDoc(grown).d);
    expect(next.a).toEqual(placed.a);
    const user = makeDoc([[], [0], []], { a: { x: 5, y: 6 } });
    expect(stickyLayout(user, placed).a).toEqual({ x: 5, y: 6 });
  });
});
