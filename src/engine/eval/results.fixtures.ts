// Result lines for tests: one (strategy, item) verdict with a run id naming its side.
import type { EvalResult } from "./schema.ts";
import { EvalResultSchema } from "./schema.ts";

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
