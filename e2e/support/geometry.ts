import type { Page } from "@playwright/test";

/** A box on the screen, in CSS pixels. */
export interface ScreenBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One drawn edge: its accessible name, its classes, and points sampled along its path. */
export interface DrawnEdge {
  label: string;
  className: string;
  points: { x: number; y: number }[];
}

/**
 * Every access edge on the canvas with points along its drawn path (every 4 px, mapped to the
 * screen through the SVG's transform), and every step node's box by step number, so a test can
 * check where edges run against where nodes are.
 */
export async function canvasGeometry(
  page: Page,
): Promise<{ edges: DrawnEdge[]; nodes: Record<number, ScreenBox> }> {
  return page.evaluate(() => {
    const nodes: Record<number, ScreenBox> = {};
    for (const el of document.querySelectorAll<HTMLElement>(".react-flow__node")) {
      const step = el.querySelector<HTMLElement>('[data-testid="step-node"]');
      if (!step?.dataset.index) continue;
      const r = el.getBoundingClientRect();
      nodes[Number(step.dataset.index) + 1] = { x: r.x, y: r.y, width: r.width, height: r.height };
    }
    const edges: DrawnEdge[] = [];
    for (const g of document.querySelectorAll<SVGGElement>(".react-flow__edge")) {
      const path = g.querySelector<SVGPathElement>("path.react-flow__edge-path");
      const ctm = path?.getScreenCTM();
      if (!path || !ctm) continue;
      const length = path.getTotalLength();
      const points: { x: number; y: number }[] = [];
      for (let at = 0; at <= length; at += 4) {
        const p = path.getPointAtLength(at).matrixTransform(ctm);
        points.push({ x: p.x, y: p.y });
      }
      edges.push({
        label: g.getAttribute("aria-label") ?? "",
        className: g.getAttribute("class") ?? "",
        points,
      });
    }
    return { edges, nodes };
  });
}

/** The step numbers an edge's accessible name ("step 1 to step 5") joins. */
export function endsOf(label: string): [number, number] {
  const m = /^step (\d+) to step (\d+)$/.exec(label);
  if (!m) throw new Error(`Unexpected edge label: ${label}`);
  return [Number(m[1]), Number(m[2])];
}

/**
 * For each edge, the steps it does not join whose box one of its sampled points lies inside
 * (2 px in from the border, so touching does not count), as "step 1 to step 5 under step 3".
 */
export function edgesUnderNodes(geometry: {
  edges: DrawnEdge[];
  nodes: Record<number, ScreenBox>;
}): string[] {
  const found: string[] = [];
  for (const edge of geometry.edges) {
    const ends = endsOf(edge.label);
    for (const [step, b] of Object.entries(geometry.nodes)) {
      if (ends.includes(Number(step))) continue;
      const under = edge.points.some(
        (p) =>
          p.x > b.x + 2 && p.x < b.x + b.width - 2 && p.y > b.y + 2 && p.y < b.y + b.height - 2,
      );
      if (under) found.push(`${edge.label} under step ${step}`);
    }
  }
  return found;
}
