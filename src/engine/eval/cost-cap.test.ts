import { describe, expect, it } from "vitest";
import type { ChatBackend } from "../llm/types.ts";
import type { Pool } from "../schema/worker.ts";
import { collect, evaluation, items, worker } from "../../test-support/engine/eval/eval-runner.ts";
import { CostModel } from "./cost-model.ts";
import { priorCost } from "./prior-cost.ts";
import type { Evaluation } from "./schema.ts";
import type { Strategy } from "./strategy.ts";

// $1 per million tokens: a call of 15 tokens costs $0.000015, its prior (600 output tokens) ~45x more.
const POOL: Pool = [
  worker("cheap", { input: 1, output: 1 }),
  worker("gold", { input: 1e5, output: 1e5 }),
];
const ITEMS = items(6);
const MOA: Strategy = { kind: "moa", workers: ["cheap", "cheap"], aggregator: "cheap" };
const CHEAP: Strategy = { kind: "single", worker: "cheap" };
const GOLD: Strategy = { kind: "single", worker: "gold" };
const CALL = 15 / 1e6;

/** The pool's evaluation of the six items under `strategies`, capped at `maxCost`. */
const capped = (strategies: Strategy[], maxCost: number | null): Evaluation =>
  evaluation(POOL, { strategies, maxCost, dataset: { name: "d", hash: "h", size: ITEMS.length } });

/** Every call answers "7" with this usage. */
const answering = (promptTokens: number, completionTokens: number): ChatBackend => ({
  label: "answers",
  continuesAssistant: false,
  async *stream() {
    await Promise.resolve();
    yield { type: "delta", text: "Answer: 7" };
    yield { type: "usage", usage: { promptTokens, completionTokens, estimated: false } };
  },
});

const run = (ev: Evaluation, usage: [number, number] = [10, 5]) =>
  collect({ evaluation: ev, items: ITEMS, backendFor: () => answering(...usage) });

describe("the spending cap", () => {
  it("learns each worker's cost from the calls made, and skips only what would pass the cap", async () => {
    const cap = 0.002;
    // The priors alone would stop everything: MoA's is above the whole cap.
    expect(priorCost(MOA, POOL, null, 10)).toBeGreaterThan(cap);
    const { outcome, results } = await run(capped([CHEAP, MOA, GOLD], cap));
    const count = (s: string) => results.filter((r) => r.strategy === s).length;
    expect(count("single:cheap")).toBe(6);
    expect(count("moa")).toBe(6);
    expect(count("single:gold")).toBe(0);
    expect(outcome.status).toBe("cost_cap");
    expect(outcome.cost).toBeCloseTo(6 * CALL + 6 * 3 * CALL, 12);
    expect(outcome.cost).toBeLessThan(cap);
    expect(outcome.skipped).toEqual([
      {
        strategy: "single:gold",
        items: 6,
        estimate: expect.any(Number) as unknown,
        basis: "prior",
        left: expect.any(Number) as unknown,
      },
    ]);
    expect(outcome.skipped[0]!.estimate).toBeGreaterThan(cap);
  });

  it("stops each strategy once its measured cost would pass what is left, never one that fits", async () => {
    // Calls as long as the prior guesses (150 + 600 tokens), so the first items fit.
    const call = 750 / 1e6;
    const cap = 12 * call + call / 2;
    const { outcome, results } = await run(capped([CHEAP, MOA], cap), [150, 600]);
    // Items go q0 cheap, q0 MoA, q1 cheap, ...: three of each (3 + 9 calls) fit, then
    // half a call's worth is left, less than either strategy's measured cost.
    expect(results.filter((r) => r.strategy === "single:cheap")).toHaveLength(3);
    expect(results.filter((r) => r.strategy === "moa")).toHaveLength(3);
    expect(outcome.cost).toBeCloseTo(12 * call, 12);
    expect(outcome.skipped).toMatchObject([
      { strategy: "single:cheap", items: 3, basis: "strategy" },
      { strategy: "moa", items: 3, basis: "strategy" },
    ]);
    for (const s of outcome.skipped) {
      expect(s.left).toBeCloseTo(call / 2, 12);
      expect(s.estimate).toBeGreaterThan(s.left);
    }
  });

  it("finishes, skipping nothing, when everything fits", async () => {
    const { outcome } = await run(capped([CHEAP, MOA], 1));
    expect(outcome).toMatchObject({ status: "finished", done: 12, skipped: [] });
  });
});

describe("CostModel", () => {
  it("goes from the prior to measured calls to the strategy's own mean", () => {
    const model = new CostModel({ pool: POOL, conductor: null });
    const prior = model.estimate(MOA, "moa", 10);
    expect(prior).toEqual({ cost: priorCost(MOA, POOL, null, 10), basis: "prior" });
    model.learnResult("single:cheap", CALL);
    // A stored result says nothing about single calls: still the prior for MoA.
    expect(model.estimate(MOA, "moa", 10).basis).toBe("prior");
    model.learnResult("moa", 5 * CALL);
    expect(model.estimate(MOA, "moa", 10)).toEqual({ cost: 5 * CALL, basis: "strategy" });
  });
});
