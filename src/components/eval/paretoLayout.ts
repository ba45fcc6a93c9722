import { formatCost } from "../../engine/cost.ts";

/**
 * The x-axis tick labels: dollars with as many decimals as the tick spacing needs, so ticks at
 * tiny costs read $0.0012, $0.0014 rather than all "0".
 */
export function costTickLabels(splits: number[]): string[] {
  const steps = splits
    .slice(1)
    .map((v, i) => Math.abs(v - splits[i]!))
    .filter((d) => d > 0);
  const step = steps.length ? Math.min(...steps) : Math.abs(splits[0] ?? 0);
  const decimals =
    step > 0 && Number.isFinite(step) ? Math.min(10, Math.max(2, Math.ceil(-Math.log10(step)))) : 2;
  return splits.map((v) => {
    if (!Number.isFinite(v)) return "";
    const text = v.toFixed(decimals);
    return `$${Number(text) === 0 ? (0).toFixed(decimals) : text}`;
  });
}

/** The x range: the costs with a margin (more on the right, where the names go), never below 0. */
export function costRange(min: number, max: number): [number, number] {
  const span = max - min || Math.abs(max) || 1e-4;
  return [Math.max(0, min - span * 0.1), max + span * 0.3];
}

/** One point's label to place: the point (pixels) and the label's size. */
export interface LabelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where a label's text goes: its left edge and baseline-free top, in pixels. */
export interface Placed {
  left: number;
  top: number;
}

const overlaps = (a: Placed & { w: number; h: number }, b: Placed & { w: number; h: number }) =>
  a.left < b.left + b.w && b.left < a.left + a.w && a.top < b.top + b.h && b.top < a.top + a.h;

/**
 * Places each point's label where it overlaps no label placed before it, no point, and stays
 * inside `bounds`: the first free spot among right-above, right-below, left-above, left-below,
 * then the same further out. Labels are placed in the order given; when no spot is free, the one
 * with the least overlap is taken (it still stays inside the bounds).
 */
export function placeLabels(
  boxes: readonly LabelBox[],
  bounds: { left: number; top: number; width: number; height: number },
  gap = 6,
): Placed[] {
  const placed: (Placed & { w: number; h: number })[] = [];
  const dots = boxes.map((b) => ({ left: b.x - 4, top: b.y - 4, w: 8, h: 8 }));
  const clampBox = (p: Placed, b: LabelBox): Placed => ({
    left: Math.min(Math.max(p.left, bounds.left), bounds.left + bounds.width - b.w),
    top: Math.min(Math.max(p.top, bounds.top), bounds.top + bounds.height - b.h),
  });
  return boxes.map((b) => {
    const spots: Placed[] = [];
    for (const far of [0, 1, 2, 3])
      for (const [dx, dy] of [
        [1, -1],
        [1, 1],
        [-1, -1],
        [-1, 1],
      ] as const) {
        const ox = gap + far * b.h * 0.5;
        const oy = far * b.h;
        spots.push({
          left: dx > 0 ? b.x + ox : b.x - ox - b.w,
          top: dy < 0 ? b.y - gap - b.h - oy : b.y + gap + oy,
        });
      }
    let best: Placed | null = null;
    let bestCost = Infinity;
    for (const spot of spots) {
      const p = { ...clampBox(spot, b), w: b.w, h: b.h };
      const cost =
        placed.filter((q) => overlaps(p, q)).length * 10 +
        dots.filter((d) => overlaps(p, d)).length;
      if (cost < bestCost) {
        best = p;
        bestCost = cost;
        if (cost === 0) break;
      }
    }
    const at = { ...best!, w: b.w, h: b.h };
    placed.push(at);
    return { left: at.left, top: at.top };
  });
}

/** The readout for a strategy under the cursor: its name, accuracy and cost per question. */
export function pointText(
  strategy: string,
  accuracy: number,
  costPerQuestion: number,
  pareto: boolean,
): string {
  return `${strategy}: ${(accuracy * 100).toFixed(1)}% accuracy at ${formatCost(costPerQuestion)} a question${pareto ? " (on the Pareto front)" : ""}`;
}
