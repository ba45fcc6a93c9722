import { TYPICAL_PLAN_TOKENS } from "../pool/conductor-estimate.ts";
import { TYPICAL_OUTPUT_TOKENS, tokensCost } from "../pool/cost-estimate.ts";
import type { ConductorConfig, Pool } from "../schema/worker.ts";
import { visibleSteps } from "../schema/workflow.ts";
import type { Strategy } from "./strategy.ts";
import { stepsFor } from "./strategy.ts";

/** The Conductor's prompt and output, and the steps a plan usually has (the paper: about 3). */
const CONDUCTOR_PROMPT_TOKENS = 1500;
export const TYPICAL_PLAN_STEPS = 3;

/**
 * One question's cost under a strategy, in parts: the Conductor's plan (0 for a fixed strategy)
 * and one entry per worker call, `worker` null where the Conductor would choose it.
 */
export interface CostParts {
  plan: number;
  calls: { worker: string | null; cost: number }[];
}

/**
 * A prior estimate of one question's cost under a strategy, before anything has run: each step's
 * prompt (the question, plus what it sees) and a typical output at the worker's price, in parts
 * so that a learned estimate (cost-model.ts) can replace each part once it has measured it.
 */
export function priorParts(
  s: Strategy,
  pool: Pool,
  conductor: ConductorConfig | null,
  questionTokens: number,
): CostParts {
  const priceOf = (id: string) => pool.find((w) => w.id === id)?.price;
  if (s.kind === "conductor") {
    const plan = conductor?.price
      ? tokensCost(CONDUCTOR_PROMPT_TOKENS + questionTokens, TYPICAL_PLAN_TOKENS, conductor.price)
      : 0;
    const priced = pool.map((w) => w.price).filter((p) => p !== undefined);
    const mean = priced.length
      ? priced.reduce((a, p) => a + tokensCost(questionTokens + 300, TYPICAL_OUTPUT_TOKENS, p), 0) /
        priced.length
      : 0;
    return {
      plan,
      calls: Array.from({ length: TYPICAL_PLAN_STEPS }, () => ({ worker: null, cost: mean })),
    };
  }
  const steps = stepsFor(s, pool);
  if (typeof steps === "string") return { plan: 0, calls: [] };
  return {
    plan: 0,
    calls: steps.map((st, i) => {
      const price = priceOf(st.worker);
      const seen = visibleSteps(st.access, i).length;
      const prompt = questionTokens + 150 + seen * TYPICAL_OUTPUT_TOKENS;
      return {
        worker: st.worker,
        cost: price ? tokensCost(prompt, TYPICAL_OUTPUT_TOKENS, price) : 0,
      };
    }),
  };
}

/** The prior estimate as one figure: every part summed. */
export function priorCost(
  s: Strategy,
  pool: Pool,
  conductor: ConductorConfig | null,
  questionTokens: number,
): number {
  const parts = priorParts(s, pool, conductor, questionTokens);
  return parts.calls.reduce((sum, c) => sum + c.cost, parts.plan);
}
