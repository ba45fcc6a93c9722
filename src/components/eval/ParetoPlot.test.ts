import { describe, expect, it } from "vitest";
import { costRange, costTickLabels, placeLabels, pointText } from "./paretoLayout.ts";

describe("costTickLabels", () => {
  it("gives tiny costs enough decimals that ticks differ", () => {
    const labels = costTickLabels([0.001, 0.0012, 0.0014, 0.0016]);
    expect(labels).toEqual(["$0.0010", "$0.0012", "$0.0014", "$0.0016"]);
    expect(new Set(labels).size).toBe(4);
  });

  it("uses cents for ordinary costs", () => {
    expect(costTickLabels([0, 0.5, 1, 1.5])).toEqual(["$0.00", "$0.50", "$1.00", "$1.50"]);
  });

  it("copes with one tick, zero and a negative zero", () => {
    expect(costTickLabels([0])).toEqual(["$0.00"]);
    expect(costTickLabels([-0, 0.00002])).toEqual(["$0.00000", "$0.00002"]);
  });
});

describe("costRange", () => {
  it("pads the costs, more on the right, never below zero", () => {
    const [lo, hi] = costRange(0.0001, 0.0004);
    expect(lo).toBeCloseTo(0.00007, 10);
    expect(hi).toBeCloseTo(0.00049, 10);
    expect(costRange(0, 0.001)[0]).toBe(0);
  });

  it("gives a single cost, or all zero, a range of its own", () => {
    const [lo, hi] = costRange(0.002, 0.002);
    expect(lo).toBeLessThan(0.002);
    expect(hi).toBeGreaterThan(0.002);
    expect(costRange(0, 0)[1]).toBeGreaterThan(0);
  });
});

describe("placeLabels", () => {
  const bounds = { left: 0, top: 0, width: 400, height: 200 };
  const overlap = (
    a: { left: number; top: number },
    b: { left: number; top: number },
    w: number,
    h: number,
  ) => a.left < b.left + w && b.left < a.left + w && a.top < b.top + h && b.top < a.top + h;

  it("keeps labels of points close together apart", () => {
    // Three strategies at almost the same accuracy and cost: the first guess stacks their names.
    const boxes = [
      { x: 200, y: 100, w: 60, h: 14 },
      { x: 203, y: 102, w: 60, h: 14 },
      { x: 206, y: 98, w: 60, h: 14 },
    ];
    const spots = placeLabels(boxes, bounds);
    for (let i = 0; i < spots.length; i++)
      for (let j = i + 1; j < spots.length; j++)
        expect(overlap(spots[i]!, spots[j]!, 60, 14)).toBe(false);
  });

  it("keeps every label inside the plot, at the right edge and the top too", () => {
    const spots = placeLabels([{ x: 398, y: 2, w: 80, h: 14 }], bounds);
    expect(spots[0]!.left + 80).toBeLessThanOrEqual(400);
    expect(spots[0]!.top).toBeGreaterThanOrEqual(0);
  });

  it("puts a lone label right and above its point", () => {
    expect(placeLabels([{ x: 100, y: 100, w: 40, h: 14 }], bounds, 6)).toEqual([
      { left: 106, top: 80 },
    ]);
  });
});

describe("pointText", () => {
  it("names the strategy with its accuracy and cost", () => {
    expect(pointText("chain", 0.35, 0.0012, false)).toBe(
      "chain: 35.0% accuracy at $0.0012 a question",
    );
    expect(pointText("moa", 1, 0.5, true)).toBe(
      "moa: 100.0% accuracy at $0.50 a question (on the Pareto front)",
    );
  });
});
