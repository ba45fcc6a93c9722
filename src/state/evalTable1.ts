/**
 * The studio's Table 1: stored evaluations of benchmark presets, the latest of each benchmark
 * chosen by default, read with their results for the engine's table1.
 */
import type { BenchmarkRun } from "../engine/eval/table1.ts";
import type { Evaluation } from "../engine/eval/schema.ts";
import { latestResults } from "../engine/eval/schema.ts";
import { evalStore } from "./evalStore.ts";

/** The stored evaluations of presets, newest first, and which are chosen by default. */
export async function table1Choices(): Promise<{ all: Evaluation[]; chosen: string[] }> {
  const all = (await evalStore().listEvaluations())
    .filter((e) => e.benchmark)
    .sort((a, b) => b.createdAt - a.createdAt);
  const seen = new Set<string>();
  const chosen: string[] = [];
  for (const e of all) {
    const b = e.benchmark?.id ?? "";
    if (seen.has(b)) continue;
    seen.add(b);
    chosen.push(e.id);
  }
  return { all, chosen };
}

/** The chosen evaluations with their results, in the order given. */
export async function table1Runs(chosen: readonly Evaluation[]): Promise<BenchmarkRun[]> {
  return Promise.all(
    chosen.map(async (evaluation) => ({
      evaluation,
      results: latestResults(await evalStore().listItems(evaluation.id)),
    })),
  );
}
