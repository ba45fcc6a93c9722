import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importRun } from "./export.ts";
import type { RoundRecord, StepRecord } from "../schema/record.ts";
import { stepRecord } from "./record.ts";
import {
  ZERO_TOTALS,
  addCall,
  callsOf,
  keptKey,
  planningCostOf,
  roundSums,
  totalsOf,
  usageOf,
} from "./totals.ts";
import { formatTotalCost, pricedUsage } from "../cost.ts";

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

/** A round record with a plan, its rejected outputs, and steps as given. */
function round(steps: Partial<StepRecord>[], index = 0): RoundRecord {
  const plan = {
    messages: [],
    raw: "ok",
    startedAt: 1,
    finishedAt: 2,
    usage: { promptTokens: 10, completionTokens: 1, estimated: false },
    cost: 0.5,
    error: null,
    rejected: [
      {
        raw: "nonsense",
        error: { code: "unparseable_list", message: "no lists" },
        usage: { promptTokens: 20, completionTokens: 2, estimated: true },
        cost: 0.25,
      },
    ],
  };
  const base = stepRecord({ pool: [] }, { worker: "a", subtask: "s", access: [] }, 0);
  return {
    index,
    plan,
    lists: null,
    steps: steps.map((s, i) => ({ ...base, index: i, ...s })),
    answer: null,
    accepted: false,
  };
}

const u = (promptTokens: number, completionTokens = 0) => ({
  promptTokens,
  completionTokens,
  estimated: false,
});

describe("roundSums: what a round's group shows", () => {
  it("counts its plan, the outputs redone, and every step that holds usage, failed or not", () => {
    const r = round([
      { status: "done", usage: u(100, 10), cost: 1 },
      { status: "failed", usage: u(200, 20), cost: 2 },
      { status: "cancelled", usage: null, cost: null },
    ]);
    expect(roundSums(r)).toMatchObject({
      tokens: 11 + 22 + 110 + 220,
      cost: 3.75,
      estimated: true,
    });
    // The run's totals count only the step that stands.
    expect(totalsOf({ rounds: [r], kept: [] })).toMatchObject({ calls: 3, cost: 1.75 });
  });

  it("counts a kept step, which the run's totals leave to the parent run", () => {
    const r = round([{ status: "done", usage: u(100), cost: 1 }]);
    const kept = [{ parent: [], round: 0, step: 0 }];
    expect(roundSums(r).cost).toBe(1.75);
    expect(totalsOf({ rounds: [r], kept }).cost).toBe(0.75);
    expect(planningCostOf({ rounds: [r], kept })).toBe(0.75);
    expect(planningCostOf({ rounds: [r], kept: [{ parent: [], round: 0, step: null }] })).toBe(0);
  });

  it("counts a self-selected step by its nested calls, not its aggregate usage again", () => {
    const inner = round([{ status: "done", usage: u(7), cost: 4 }]);
    const r = round([
      {
        status: "done",
        usage: u(1000),
        cost: 100,
        nested: { depth: 1, question: "q", rounds: [inner], answer: "42" },
      },
    ]);
    expect(roundSums(r)).toMatchObject({
      tokens: 33 + 33 + 7,
      cost: 0.75 + 0.75 + 4,
      estimated: true,
    });
    expect(totalsOf({ rounds: [r], kept: [] }).calls).toBe(5);
  });

  it("is zero for a round with nothing run", () => {
    const empty: RoundRecord = { ...round([]), plan: null };
    expect(roundSums(empty)).toEqual({
      tokens: 0,
      cost: 0,
      calls: 0,
      unpricedCalls: 0,
      estimated: false,
    });
  });
});

describe("callsOf: the one walk", () => {
  it("yields each call in record order with where it sits, whether it stands and whether it was kept", () => {
    const inner = round([{ status: "done", usage: u(7), cost: 4 }]);
    const r = round([
      { status: "failed", usage: u(1), cost: 1 },
      {
        status: "done",
        usage: u(9),
        cost: 9,
        nested: { depth: 1, question: "q", rounds: [inner], answer: "a" },
      },
    ]);
    const kept = new Set([keptKey([], 0, 0)]);
    const calls = [...callsOf([r], kept)].map((c) => [
      c.kind,
      c.parent.length,
      c.step,
      c.kept,
      c.finished,
    ]);
    expect(calls).toEqual([
      ["rejected", 0, null, false, true],
      ["plan", 0, null, false, true],
      ["step", 0, 0, true, false],
      ["rejected", 1, null, false, true],
      ["plan", 1, null, false, true],
      ["step", 1, 0, false, true],
    ]);
  });
});

describe("the walk's edges", () => {
  it("keys a kept part by its whole path, its round and its step or plan", () => {
    expect(keptKey([], 0, 0)).toBe("|0|0");
    expect(
      keptKey(
        [
          { round: 1, step: 2 },
          { round: 3, step: 4 },
        ],
        5,
        null,
      ),
    ).toBe("1.2/3.4|5|p");
    expect(keptKey([{ round: 1, step: 2 }], 0, null)).not.toBe(
      keptKey([{ round: 1, step: 2 }], 0, 0),
    );
  });

  it("counts the calls a cache answered, and says nothing of them when none was", () => {
    let t = addCall(ZERO_TOTALS, { ...call, cached: true }, 0);
    t = addCall(t, call, 0.5);
    t = addCall(t, { ...call, cached: true }, 0);
    expect(t.cachedCalls).toBe(2);
    expect(addCall(ZERO_TOTALS, call, 0)).not.toHaveProperty("cachedCalls");
  });

  it("skips a plan that holds no usage, a redone output without usage, and an unfinished plan", () => {
    const r = round([]);
    const noUsage: RoundRecord = {
      ...r,
      plan: {
        ...r.plan!,
        usage: null,
        finishedAt: null,
        rejected: [{ ...r.plan!.rejected![0]!, usage: null }],
      },
    };
    expect([...callsOf([noUsage])]).toEqual([]);
    const unfinished: RoundRecord = { ...r, plan: { ...r.plan!, finishedAt: null, rejected: [] } };
    expect([...callsOf([unfinished])].map((c) => c.finished)).toEqual([false]);
    expect(totalsOf({ rounds: [unfinished], kept: [] }).calls).toBe(0);
  });

  it("gives a self-selected step the usage of its nested calls, reasoning included", () => {
    const t = addCall(addCall(ZERO_TOTALS, { ...call, reasoningTokens: 5 }, 1), call, 2);
    expect(usageOf(t)).toEqual({
      promptTokens: 200,
      completionTokens: 80,
      estimated: false,
      reasoningTokens: 5,
    });
    expect(usageOf(addCall(ZERO_TOTALS, call, 0))).not.toHaveProperty("reasoningTokens");
  });
});

describe("unknown prices", () => {
  it("counts the calls whose price was unknown, and says so instead of $0", () => {
    const priced = { promptTokens: 10, completionTokens: 5, estimated: false };
    const t = addCall(addCall(ZERO_TOTALS, priced, 0.5), { ...priced, unpriced: true }, 0);
    expect(t).toMatchObject({ calls: 2, cost: 0.5, unpricedCalls: 1 });
    expect(formatTotalCost(t)).toBe("≥ $0.50, 1 call unpriced");
    const none = addCall(ZERO_TOTALS, { ...priced, unpriced: true }, 0);
    expect(formatTotalCost(none)).toBe("cost unknown");
    expect(formatTotalCost(addCall(ZERO_TOTALS, priced, 0))).toBe("$0");
    expect(pricedUsage(priced, undefined, true)).toEqual({ ...priced, unpriced: true });
    expect(pricedUsage(priced, undefined, false)).toEqual(priced);
    expect(pricedUsage({ ...priced, providerCost: 0.1 }, undefined, true).unpriced).toBeUndefined();
  });
});
