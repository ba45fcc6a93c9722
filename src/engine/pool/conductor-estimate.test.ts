import { describe, expect, it } from "vitest";
import { buildRefinementMessage } from "../conductor/refine.ts";
import { estimateTokens } from "../llm/token-estimate.ts";
import type { ChatMessage } from "../schema/usage.ts";
import { ConductorConfigSchema } from "../schema/worker.ts";
import {
  TYPICAL_PLAN_TOKENS,
  conductorPricing,
  estimateConductorCalls,
} from "./conductor-estimate.ts";
import { promptTokensOf, tokensCost } from "./cost-estimate.ts";

const priced = ConductorConfigSchema.parse({
  model: "c",
  maxTokens: 1000,
  price: { input: 1, output: 4 },
});
const unpriced = ConductorConfigSchema.parse({ model: "c", maxTokens: 1000 });
const inBrowser = ConductorConfigSchema.parse({ kind: "webllm", model: "q", maxTokens: 1000 });
const planMessages: ChatMessage[] = [
  { role: "system", content: "x".repeat(400) },
  { role: "user", content: "y".repeat(4000) },
];
const base = promptTokensOf(planMessages);
const answerTokens = { max: 2000, typical: 600 };
const refine = estimateTokens(buildRefinementMessage("", 1)) + 8;

/** The priced Conductor's further calls for the plan above, with no refinement or nesting unless `over` says. */
const estimate = (over: Partial<Parameters<typeof estimateConductorCalls>[0]> = {}) =>
  estimateConductorCalls({
    conductor: priced,
    planMessages,
    refineRounds: 0,
    selfSelectedSteps: 0,
    answerTokens,
    ...over,
  });

describe("estimateConductorCalls", () => {
  it("prices nothing when the run makes no further Conductor call", () => {
    const e = estimate();
    expect(e).toMatchObject({ pricing: "priced", calls: 0, cost: { max: 0, typical: 0 } });
  });

  it("grows each refinement round's prompt by the earlier plans and answers", () => {
    const e = estimate({ refineRounds: 2 });
    const max = 2 * base + 3 * (1000 + 2000 + refine);
    const typical = 2 * base + 3 * (TYPICAL_PLAN_TOKENS + 600 + refine);
    expect(e.calls).toBe(2);
    expect(e.promptTokens).toEqual({ max, typical });
    expect(e.outputTokens).toEqual({ max: 2000, typical: 2 * TYPICAL_PLAN_TOKENS });
    expect(e.cost?.max).toBeCloseTo(tokensCost(max, 2000, priced.price!), 12);
    expect(e.cost?.typical).toBeCloseTo(
      tokensCost(typical, 2 * TYPICAL_PLAN_TOKENS, priced.price!),
      12,
    );
  });

  it("counts one nested plan per self-selected step", () => {
    const e = estimate({ selfSelectedSteps: 2 });
    expect(e.calls).toBe(2);
    expect(e.promptTokens).toEqual({ max: 2 * base, typical: 2 * base });
  });

  it("is free in the browser and unknown for a remote Conductor without a price", () => {
    const free = estimate({ refineRounds: 1, conductor: inBrowser });
    expect(free).toMatchObject({ pricing: "free", cost: { max: 0, typical: 0 } });
    const unknown = estimate({ refineRounds: 1, conductor: unpriced });
    expect(unknown).toMatchObject({ pricing: "no_price", cost: null });
    expect([priced, unpriced, inBrowser].map(conductorPricing)).toEqual([
      "priced",
      "no_price",
      "free",
    ]);
  });
});
