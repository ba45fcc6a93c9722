import { buildRefinementMessage } from "../conductor/refine.ts";
import { MESSAGE_OVERHEAD, estimateTokens } from "../llm/token-estimate.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { ConductorConfig } from "../schema/worker.ts";
import type { Span } from "./cost-estimate.ts";
import { promptTokensOf, tokensCost } from "./cost-estimate.ts";

/** A typical plan, in tokens: reasoning and the three lists (eval/estimate.ts uses the same). */
export const TYPICAL_PLAN_TOKENS = 400;

export interface ConductorEstimate {
  /** "free" for the in-browser Conductor; "no_price" for a remote one without a price. */
  pricing: "priced" | "free" | "no_price";
  /** Conductor calls the run may still make: one per refinement round and per self-selected step. */
  calls: number;
  promptTokens: Span;
  outputTokens: Span;
  /** Dollars over those calls; null when the Conductor has no price. */
  cost: Span | null;
}

/** How the Conductor's plans are priced: free in the browser, else its price if it has one. */
export function conductorPricing(conductor: ConductorConfig): ConductorEstimate["pricing"] {
  if (conductor.kind === "webllm") return "free";
  return conductor.price ? "priced" : "no_price";
}

/**
 * Estimates the Conductor calls a run makes after its plan: each refinement round reads the plan
 * prompt plus, for every earlier round, its plan and answer and the refinement message, then
 * writes a plan; each self-selected step plans a nested workflow from a prompt about as long as the
 * first one. Upper bounds use the Conductor's max tokens and `answerTokens.max`; the typical case
 * `TYPICAL_PLAN_TOKENS` and `answerTokens.typical`.
 */
export function estimateConductorCalls(input: {
  conductor: ConductorConfig;
  /** The messages of the run's first plan (buildConductorMessages). */
  planMessages: readonly ChatMessage[];
  refineRounds: number;
  selfSelectedSteps: number;
  /** The final step's output: what a refinement round reads as the answer. */
  answerTokens: Span;
}): ConductorEstimate {
  const { conductor } = input;
  const base = promptTokensOf(input.planMessages);
  const plan = {
    max: conductor.maxTokens,
    typical: Math.min(conductor.maxTokens, TYPICAL_PLAN_TOKENS),
  };
  // The refinement message, and the overhead of it and of the previous plan as messages.
  const refine = estimateTokens(buildRefinementMessage("", 1)) + 2 * MESSAGE_OVERHEAD;
  const promptTokens = { max: 0, typical: 0 };
  const outputTokens = { max: 0, typical: 0 };
  const add = (prompt: Span) => {
    promptTokens.max += prompt.max;
    promptTokens.typical += prompt.typical;
    outputTokens.max += plan.max;
    outputTokens.typical += plan.typical;
  };
  for (let r = 1; r <= input.refineRounds; r++)
    add({
      max: base + r * (plan.max + input.answerTokens.max + refine),
      typical: base + r * (plan.typical + input.answerTokens.typical + refine),
    });
  for (let i = 0; i < input.selfSelectedSteps; i++) add({ max: base, typical: base });
  const pricing = conductorPricing(conductor);
  const price = pricing === "free" ? { input: 0, output: 0 } : conductor.price;
  return {
    pricing,
    calls: input.refineRounds + input.selfSelectedSteps,
    promptTokens,
    outputTokens,
    cost: price
      ? {
          max: tokensCost(promptTokens.max, outputTokens.max, price),
          typical: tokensCost(promptTokens.typical, outputTokens.typical, price),
        }
      : null,
  };
}
