import { TYPICAL_PLAN_TOKENS } from "../pool/conductor-estimate.ts";
import { TYPICAL_OUTPUT_TOKENS, tokensCost } from "../pool/estimate.ts";
import type { ConductorConfig, Pool } from "../schema/worker.ts";
import { visibleSteps } from "../schema/workflow.ts";
import type { Strategy } from "./strategy.ts";
import { stepsFor } from "./strategy.ts";

/** The Conductor's prompt and output, and the steps a plan usually has (the paper: about 3). */
const CONDUCTOR_PROMPT_TOKENS = 1500;
const TYPICAL_PLAN_STEPS = 3;

/**
 * A prior estimate of one question's cost under a strategy, before anything has run: each step's
 * prompt (the question, plus what it sees) and a typical output at the worker's price. The runner
 * replaces it with the measured mean once the strategy has finished items.
 */
export function priorCost(
  s: Strategy,
  pool: Pool,
  conductor: ConductorConfig | null,
  questionTokens: number,
): number {
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
    return plan + TYPICAL_PLAN_STEPS * mean;
  }
  const steps = stepsFor(s, pool, "");
  if (typeof steps === "string") return 0;
  return steps.reduce((sum, st, i) => {
    const price = priceOf(st.worker);
    if (!price) return sum;
    const seen = visibleSteps(st.access, i).length;
    return (
      sum +
      tokensCost(questionTokens + 150 + seen * TYPICAL_OUTPUT_TOKENS, TYPICAL_OUTPUT_TOKENS, price)
    );
  }, 0);
}
