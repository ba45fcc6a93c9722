// Merging the results files of an evaluation's shards (eval-merge): one result per cell, in the
// order of the dataset, the strategies and the repeats, and the cells no file has.
import type { EvalResult } from "./schema.ts";
import { latestResults, resultKey } from "./schema.ts";

export interface MergedResults {
  /** One result per cell, ordered by item (the dataset's order), strategy, then repeat. */
  results: EvalResult[];
  /** Lines dropped because another line had the same cell. */
  duplicates: number;
  /** Cells of the evaluation with no result in any file, in the same order. */
  missing: { item: string; strategy: string; repeat: number }[];
}

/** The better of two results of one cell: a verdict over an error, then the later one. */
function better(a: EvalResult, b: EvalResult): EvalResult {
  if (!a.error !== !b.error) return a.error ? b : a;
  return (b.finishedAt ?? 0) >= (a.finishedAt ?? 0) ? b : a;
}

/**
 * Merges `files` (each a results file's lines, read in order: within a file the last line of a
 * cell counts, as on resume). Across files, a cell found twice keeps the result with a verdict,
 * else the later. `items` are the dataset's ids in order (a result of another item sorts last, by
 * id); `strategies` the evaluation's names in order.
 */
export function mergeResults(
  files: readonly (readonly EvalResult[])[],
  items: readonly string[],
  strategies: readonly string[],
  repeats: number,
): MergedResults {
  const byKey = new Map<string, EvalResult>();
  let lines = 0;
  for (const lines_ of files) {
    lines += lines_.length;
    for (const r of latestResults(lines_)) {
      const key = resultKey(r);
      const had = byKey.get(key);
      byKey.set(key, had ? better(had, r) : r);
    }
  }
  const itemAt = new Map(items.map((id, i) => [id, i]));
  const strategyAt = new Map(strategies.map((s, i) => [s, i]));
  const place = (r: EvalResult) =>
    [itemAt.get(r.item) ?? items.length, strategyAt.get(r.strategy) ?? strategies.length] as const;
  const results = [...byKey.values()].sort((a, b) => {
    const [ia, sa] = place(a);
    const [ib, sb] = place(b);
    return (
      ia - ib ||
      (ia === items.length ? a.item.localeCompare(b.item) : 0) ||
      sa - sb ||
      a.strategy.localeCompare(b.strategy) ||
      a.repeat - b.repeat
    );
  });
  const missing: MergedResults["missing"] = [];
  for (const item of items)
    for (const strategy of strategies)
      for (let repeat = 0; repeat < repeats; repeat++)
        if (!byKey.has(resultKey({ item, strategy, repeat })))
          missing.push({ item, strategy, repeat });
  return { results, duplicates: lines - results.length, missing };
}
