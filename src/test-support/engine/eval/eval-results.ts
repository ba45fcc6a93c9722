// Result lines for tests: one (strategy, item) verdict with a run id naming its side, and a
// correct one as the studio stores it.
import type { EvalResult } from "../../../engine/eval/schema.ts";
import { EvalResultSchema } from "../../../engine/eval/schema.ts";

/** A result line whose run id is `${tag}-${strategy}-${item}-${repeat}`. */
export function line(
  strategy: string,
  item: string,
  correct: boolean | null,
  tag: string,
  over: Partial<EvalResult> = {},
): EvalResult {
  return EvalResultSchema.parse({
    item,
    strategy,
    repeat: 0,
    correct,
    score: correct ? 1 : 0,
    answer: "x",
    expected: "x",
    tokens: 1,
    cost: 0,
    latencyMs: 1,
    runId: `${tag}-${strategy}-${item}-${over.repeat ?? 0}`,
    ...over,
  });
}

/** One `line` per strategy and item of `verdicts` (strategy -> item -> correct), in their order. */
export const lines = (
  tag: string,
  verdicts: Record<string, Record<string, boolean | null>>,
): EvalResult[] =>
  Object.entries(verdicts).flatMap(([strategy, items]) =>
    Object.entries(items).map(([item, correct]) => line(strategy, item, correct, tag)),
  );

/** A correct result of one call that answered "7", with run id `run-${item}-${strategy}`. */
export const doneResult = (
  item: string,
  strategy: string,
  over: Partial<EvalResult> = {},
): EvalResult => ({
  item,
  strategy,
  repeat: 0,
  correct: true,
  score: 1,
  answer: "7",
  expected: "7",
  tokens: 10,
  cost: 0.001,
  latencyMs: 100,
  runId: `run-${item}-${strategy}`,
  calls: 1,
  extracted: "7",
  status: "done",
  endReason: "no_rounds",
  planFailed: false,
  error: null,
  ...over,
});
