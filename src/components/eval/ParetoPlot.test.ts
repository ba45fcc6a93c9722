import { describe, expect, it } from "vitest";
import { costRange, costTickLabels } from "./ParetoPlot.tsx";

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
