import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importRun } from "./export.ts";
import { ZERO_TOTALS, addCall } from "./totals.ts";

const call = { promptTokens: 100, completionTokens: 40, estimated: false };

describe("run totals and reasoning tokens", () => {
  it("sums the reasoning tokens calls report, and counts none for calls that report none", () => {
    let t = addCall(ZERO_TOTALS, call, 0.001);
    expect(t).not.toHaveProperty("reasoningTokens");
    t = addCall(t, { ...call, reasoningTokens: 30 }, 0.002);
    t = addCall(t, { ...call, reasoningTokens: 0 }, 0);
    t = addCall(t, { ...call, reasoningTokens: 12 }, 0);
    expect(t).toMatchObject({ completionTokens: 160, reasoningTokens: 42, calls: 4 });
  });

  it("counts cached calls and the money they saved; a saving on an uncached call is ignored", () => {
    let t = addCall(ZERO_TOTALS, call, 0.001);
    expect(t).not.toHaveProperty("savedCost");
    t = addCall(t, { ...call, cached: true, savedCost: 0.004 }, 0);
    t = addCall(t, { ...call, cached: true }, 0);
    t = addCall(t, { ...call, savedCost: 1 }, 0.002);
    expect(t).toMatchObject({ calls: 4, cachedCalls: 2, savedCost: 0.004 });
    expect(t.cost).toBeCloseTo(0.003, 10);
  });

  it("keeps an old record without the field valid, and its totals as they were", () => {
    const text = readFileSync(new URL("./fixtures/run-v4-nested.json", import.meta.url), "utf8");
    const imported = importRun(text);
    expect(imported.ok).toBe(true);
    expect(imported.ok && imported.record.totals).not.toHaveProperty("reasoningTokens");
  });
});
