// How History names an evaluation's items: each verdict, and the tags shown on its runs.
import type { EvalResult, Evaluation } from "../../engine/eval/schema.ts";
import type { EvalTag, Verdict } from "../../engine/store/db-schema.ts";
import { evalStore } from "./evalStore.ts";

/** An item's verdict as History names it: a failed call is an error, not an unscored answer. */
export function verdictOf(result: Pick<EvalResult, "correct" | "error">): Verdict {
  if (result.error) return "errored";
  return result.correct === true ? "correct" : result.correct === false ? "wrong" : "unscored";
}

/** What an item's history row says about it: its evaluation, strategy, item and verdict. */
export function evalTagOf(evaluation: Evaluation, result: EvalResult): EvalTag {
  return {
    id: evaluation.id,
    name: evaluation.name,
    strategy: result.strategy,
    item: result.item,
    repeat: result.repeat,
    verdict: verdictOf(result),
  };
}

/** The tags of the runs named (by run id), read from the evaluation store's results. */
export async function evalTagsByRun(runIds: ReadonlySet<string>): Promise<Map<string, EvalTag>> {
  const tags = new Map<string, EvalTag>();
  for (const evaluation of await evalStore().listEvaluations())
    for (const result of await evalStore().listItems(evaluation.id))
      if (runIds.has(result.runId)) tags.set(result.runId, evalTagOf(evaluation, result));
  return tags;
}
