import { describe, expect, it } from "vitest";
import { costTickLabels } from "./ParetoPlot.tsx";

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
