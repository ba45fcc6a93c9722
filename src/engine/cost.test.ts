import { describe, expect, it } from "vitest";
import { callCost, formatCost } from "./cost.ts";
import type { Usage } from "./schema/usage.ts";

const usage: Usage = { promptTokens: 2_000, completionTokens: 500, estimated: false };

describe("callCost", () => {
  it("multiplies tokens by the per-million prices, input and output apart", () => {
    // 2000 * 1.25 / 1e6 + 500 * 10 / 1e6 = 0.0025 + 0.005
    expect(callCost(usage, { input: 1.25, output: 10 })).toBeCloseTo(0.0075, 12);
    expect(callCost(usage, { input: 0, output: 2 })).toBeCloseTo(0.001, 12);
    expect(callCost(usage, { input: 3, output: 0 })).toBeCloseTo(0.006, 12);
  });

  it("prefers the provider's own figure over the price", () => {
    expect(callCost({ ...usage, providerCost: 0.042 }, { input: 1.25, output: 10 })).toBe(0.042);
    expect(callCost({ ...usage, providerCost: 0 }, { input: 1.25, output: 10 })).toBe(0);
  });

  it("uses the provider's figure even without a price", () => {
    expect(callCost({ ...usage, providerCost: 0.013 }, undefined)).toBe(0.013);
  });

  it("is zero without a price", () => {
    expect(callCost(usage, undefined)).toBe(0);
  });

  it("is zero for zero tokens", () => {
    expect(
      callCost({ promptTokens: 0, completionTokens: 0, estimated: true }, { input: 5, output: 15 }),
    ).toBe(0);
  });
});

describe("formatCost", () => {
  it.each([
    [0, "$0"],
    [0.0075, "$0.0075"],
    [0.00012, "$0.0001"],
    [0.01, "$0.01"],
    [0.123, "$0.12"],
    [1.5, "$1.50"],
    [12.345, "$12.35"],
  ])("formats %s as %s", (dollars, text) => {
    expect(formatCost(dollars)).toBe(text);
  });
});
