import { useEffect, useRef } from "react";
import type { StrategySummary } from "../../engine/eval/report.ts";

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

/**
 * Accuracy against cost per question, one point per strategy, the Pareto front joined. uPlot is
 * imported here only, when the plot first renders.
 */
export function ParetoPlot({ rows }: { rows: StrategySummary[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    const points = rows.filter((r) => r.accuracy !== null);
    if (!el || points.length === 0) return;
    let plot: { destroy: () => void } | null = null;
    let cancelled = false;
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(
      ([{ default: UPlot }]) => {
        if (cancelled) return;
        const sorted = [...points].sort((a, b) => a.costPerQuestion - b.costPerQuestion);
        const xs = sorted.map((r) => r.costPerQuestion);
        const acc = sorted.map((r) => r.accuracy! * 100);
        const front = sorted.map((r) => (r.pareto ? r.accuracy! * 100 : null));
        plot = new UPlot(
          {
            width: Math.max(320, el.clientWidth),
            height: 260,
            mode: 1,
            scales: {
              // Room either side so the end points and their names are not cut at the edges.
              x: { time: false, range: (_u, min, max) => costRange(min, max) },
              y: { range: [0, 100] },
            },
            axes: [
              {
                label: "cost per question ($)",
                values: (_u, splits) => costTickLabels(splits),
                space: 70,
              },
              { label: "accuracy (%)" },
            ],
            series: [
              {},
              {
                label: "strategy",
                stroke: "#2b6cb0",
                width: 0,
                points: { show: true, size: 9, fill: "#2b6cb0" },
              },
              {
                label: "Pareto front",
                stroke: "#dd6b20",
                width: 2,
                spanGaps: true,
                points: { show: true, size: 11, fill: "#dd6b20" },
              },
            ],
            hooks: {
              draw: [
                (u) => {
                  const ctx = u.ctx;
                  ctx.save();
                  ctx.fillStyle = getComputedStyle(el).color;
                  ctx.textAlign = "left";
                  ctx.textBaseline = "alphabetic";
                  ctx.font = `${12 * devicePixelRatio}px sans-serif`;
                  sorted.forEach((r, i) => {
                    const x = u.valToPos(xs[i]!, "x", true);
                    const y = u.valToPos(acc[i]!, "y", true);
                    ctx.fillText(r.strategy, x + 8 * devicePixelRatio, y - 6 * devicePixelRatio);
                  });
                  ctx.restore();
                },
              ],
            },
          },
          [xs, acc, front],
          el,
        );
      },
    );
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [rows]);
  return <div ref={ref} className="pareto-plot" data-testid="pareto-plot" />;
}
