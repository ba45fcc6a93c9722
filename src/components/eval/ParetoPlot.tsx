import { useEffect, useId, useRef, useState } from "react";
import type { StrategySummary } from "../../engine/eval/report.ts";
import { formatCost } from "../../engine/cost.ts";
import { costRange, costTickLabels, placeLabels, pointText } from "./paretoLayout.ts";

/** The theme's colours, read from the CSS variables where the plot is drawn. */
function themeColours(el: HTMLElement) {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v("--fg", "#0f172a"),
    muted: v("--muted", "#64748b"),
    grid: v("--border", "#dbe1ea"),
    point: v("--accent", "#4f46e5"),
    front: v("--warn", "#b45309"),
  };
}

/** Re-renders when the page's theme changes (the canvas has no CSS to follow it). */
function useTheme(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? "");
  useEffect(() => {
    const html = document.documentElement;
    const watch = new MutationObserver(() => setTheme(html.dataset.theme ?? ""));
    watch.observe(html, { attributes: true, attributeFilter: ["data-theme"] });
    return () => watch.disconnect();
  }, []);
  return theme;
}

/** The plot's data as a table: its text alternative, one row per strategy. */
function ParetoTable({ points, id }: { points: StrategySummary[]; id: string }) {
  return (
    <table className="eval-table pareto-table" id={id} data-testid="pareto-table">
      <caption>Accuracy against cost per question</caption>
      <thead>
        <tr>
          <th scope="col">Strategy</th>
          <th scope="col">Accuracy</th>
          <th scope="col">Cost per question</th>
          <th scope="col">Pareto front</th>
        </tr>
      </thead>
      <tbody>
        {points.map((r) => (
          <tr key={r.strategy} data-testid={`pareto-row-${r.strategy}`}>
            <th scope="row">{r.strategy}</th>
            <td>{(r.accuracy! * 100).toFixed(1)}%</td>
            <td>{formatCost(r.costPerQuestion)}</td>
            <td>{r.pareto ? "yes" : "no"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Accuracy against cost per question, one point per strategy, the Pareto front joined, each
 * point named (labels placed apart); the cursor's nearest point is read out by name, accuracy and
 * cost, and a table gives the same data as text. uPlot is imported here only, when first drawn.
 */
export function ParetoPlot({ rows }: { rows: StrategySummary[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  const tableId = useId();
  const [hover, setHover] = useState<string | null>(null);
  const points = rows.filter((r) => r.accuracy !== null);
  // A strategy whose calls had no price has no known cost: no front is drawn on such points.
  const unknown = points.filter((r) => r.unpricedCalls > 0);
  const sorted = [...points].sort((a, b) => a.costPerQuestion - b.costPerQuestion);
  const key = JSON.stringify(
    sorted.map((r) => [r.strategy, r.accuracy, r.costPerQuestion, r.pareto]),
  );
  useEffect(() => {
    const el = ref.current;
    if (!el || sorted.length === 0) return;
    let plot: {
      destroy: () => void;
      setSize: (s: { width: number; height: number }) => void;
    } | null = null;
    let cancelled = false;
    const colours = themeColours(el);
    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: Math.max(320, el.clientWidth), height: 280 }),
    );
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(
      ([{ default: UPlot }]) => {
        if (cancelled) return;
        const xs = sorted.map((r) => r.costPerQuestion);
        const acc = sorted.map((r) => r.accuracy! * 100);
        const front = sorted.map((r) => (r.pareto ? r.accuracy! * 100 : null));
        const axis = {
          stroke: colours.fg,
          grid: { stroke: colours.grid, width: 1 },
          ticks: { stroke: colours.grid, width: 1 },
        };
        plot = new UPlot(
          {
            width: Math.max(320, el.clientWidth),
            height: 280,
            mode: 1,
            // Our own readout names the strategy; uPlot's legend would show raw series values.
            legend: { show: false },
            cursor: { points: { show: false }, drag: { x: false, y: false } },
            scales: {
              // Room either side so the end points and their names are not cut at the edges.
              // From the costs themselves: uPlot widens equal ends (every cost $0) to 0..100
              // before asking, which drew an axis to $120 for points all at $0.
              x: { time: false, range: () => costRange(Math.min(...xs), Math.max(...xs)) },
              y: { range: [0, 105] },
            },
            axes: [
              {
                ...axis,
                label: "cost per question ($)",
                values: (_u, splits) => costTickLabels(splits),
                space: 70,
              },
              { ...axis, label: "accuracy (%)", values: (_u, splits) => splits.map((v) => `${v}`) },
            ],
            series: [
              {},
              {
                label: "strategy",
                stroke: colours.point,
                width: 0,
                points: { show: true, size: 9, fill: colours.point, stroke: colours.point },
              },
              {
                label: "Pareto front",
                stroke: colours.front,
                width: 2,
                spanGaps: true,
                points: { show: true, size: 11, fill: colours.front, stroke: colours.front },
              },
            ],
            hooks: {
              setCursor: [
                (u) => {
                  const i = u.cursor.idx;
                  const r = i === null || i === undefined ? undefined : sorted[i];
                  setHover(
                    r ? pointText(r.strategy, r.accuracy!, r.costPerQuestion, r.pareto) : null,
                  );
                },
              ],
              draw: [
                (u) => {
                  const ctx = u.ctx;
                  const px = devicePixelRatio;
                  ctx.save();
                  ctx.fillStyle = colours.fg;
                  ctx.textAlign = "left";
                  ctx.textBaseline = "top";
                  ctx.font = `${12 * px}px sans-serif`;
                  const boxes = sorted.map((r, i) => ({
                    x: u.valToPos(xs[i]!, "x", true),
                    y: u.valToPos(acc[i]!, "y", true),
                    w: ctx.measureText(r.strategy).width,
                    h: 14 * px,
                  }));
                  const spots = placeLabels(boxes, u.bbox, 6 * px);
                  sorted.forEach((r, i) => ctx.fillText(r.strategy, spots[i]!.left, spots[i]!.top));
                  // Where the names went, in CSS pixels: the canvas keeps no other trace of them.
                  el.dataset.labels = JSON.stringify(
                    spots.map((p, i) => ({
                      left: p.left / px,
                      top: p.top / px,
                      w: boxes[i]!.w / px,
                      h: boxes[i]!.h / px,
                    })),
                  );
                  ctx.restore();
                  // The x axis's end, for a reader (and a test) to check that it fits the costs.
                  el.dataset.xmax = String(u.scales.x!.max);
                },
              ],
            },
          },
          [xs, acc, front],
          el,
        );
        el.dataset.drawn = "true";
        resize.observe(el);
      },
    );
    return () => {
      cancelled = true;
      resize.disconnect();
      plot?.destroy();
      delete el.dataset.drawn;
      delete el.dataset.labels;
      delete el.dataset.xmax;
    };
    // `key` stands for the points drawn; `theme` redraws in the theme's colours.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, theme]);
  if (sorted.length === 0) return null;
  if (unknown.length)
    return (
      <figure className="pareto" data-testid="pareto">
        <p className="muted" data-testid="pareto-unknown">
          No Pareto front: the cost of {unknown.map((r) => r.strategy).join(", ")} is unknown (a
          worker has no price; set one in Settings → Workers). A front drawn on unknown costs would
          be drawn on zeros.
        </p>
      </figure>
    );
  const summary = sorted
    .map((r) => pointText(r.strategy, r.accuracy!, r.costPerQuestion, r.pareto))
    .join("; ");
  return (
    <figure className="pareto" data-testid="pareto">
      <div
        ref={ref}
        className="pareto-plot"
        data-testid="pareto-plot"
        role="img"
        aria-label={`Pareto plot of accuracy against cost per question. ${summary}.`}
        aria-describedby={tableId}
      />
      <p className="pareto-readout" data-testid="pareto-readout" aria-live="polite">
        {hover ?? "Point at a strategy to read its accuracy and cost."}
      </p>
      <ParetoTable points={sorted} id={tableId} />
    </figure>
  );
}
