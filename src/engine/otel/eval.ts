import type { EvalResult } from "../eval/schema.ts";
import type { Attributes } from "./span.ts";
import { double } from "./span.ts";

/**
 * The root-span attributes of an evaluation item's run: which evaluation, item, strategy and
 * repeat, and the verdict. `session.id` is the evaluation, so Phoenix and Langfuse group its
 * items as one session.
 */
export function evalRootAttributes(
  result: Pick<EvalResult, "item" | "strategy" | "repeat" | "correct" | "score" | "scoredBy">,
  evaluationId: string,
): Attributes {
  return {
    "session.id": evaluationId,
    "conductor.eval.id": evaluationId,
    "conductor.eval.item": result.item,
    "conductor.eval.strategy": result.strategy,
    "conductor.eval.repeat": result.repeat,
    "conductor.eval.score": double(result.score),
    ...(result.correct !== null ? { "conductor.eval.correct": result.correct } : {}),
    // which grader gave the verdict: a figure is only comparable under the same one
    ...(result.scoredBy
      ? {
          "conductor.eval.scorer": result.scoredBy.id,
          "conductor.eval.scorer_version": result.scoredBy.version,
          ...(result.scoredBy.profile
            ? { "conductor.eval.scorer_profile": result.scoredBy.profile }
            : {}),
        }
      : {}),
  };
}
