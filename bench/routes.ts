import { edgesOf } from "../src/engine/graph/edges.ts";
import type { Rect } from "../src/engine/graph/geometry.ts";
import { DEFAULT_NODE_SIZE } from "../src/engine/constants.ts";
import { layoutDoc } from "../src/engine/graph/layout.ts";
import { routeEdges } from "../src/engine/graph/route.ts";
import type { Access } from "../src/engine/schema/workflow.ts";
import { makeDoc } from "../src/test-support/engine/graph/graph-docs.ts";

/** A chain whose last step reads "all", and a workflow where every step after the first does. */
const SHAPES: Record<string, (n: number) => Access[]> = {
  "chain, then all": (n) =>
    Array.from({ length: n }, (_, i) => (i === 0 ? [] : i === n - 1 ? "all" : [i - 1])),
  "every step all": (n) => Array.from({ length: n }, (_, i) => (i === 0 ? [] : "all")),
};

/**
 * Edge routing (src/engine/graph/route.ts) at the automatic layout: how long one pass over every
 * edge takes, which the canvas runs on each frame of a drag. Median of 15 runs.
 */
export function benchRoutes(): void {
  console.log("\nEdge routing (one pass over all edges, median of 15)");
  for (const [name, shape] of Object.entries(SHAPES)) {
    for (const n of [5, 10, 15]) {
      const doc = makeDoc(shape(n));
      const pos = layoutDoc(doc);
      const rects: Record<string, Rect> = {};
      for (const [id, p] of Object.entries(pos)) rects[id] = { ...p, ...DEFAULT_NODE_SIZE };
      const edges = edgesOf(doc);
      let routed = 0;
      const times: number[] = [];
      for (let run = 0; run < 5; run++) routeEdges(rects, edges); // warm-up
      for (let run = 0; run < 15; run++) {
        const t = performance.now();
        routed = Object.keys(routeEdges(rects, edges)).length;
        times.push(performance.now() - t);
      }
      const median = times.sort((a, b) => a - b)[7]!;
      console.log(
        `  ${name.padEnd(16)} ${String(n).padStart(2)} steps: ${String(edges.length).padStart(3)} edges, ` +
          `${String(routed).padStart(3)} detoured, ${median.toFixed(2)} ms`,
      );
    }
  }
}
