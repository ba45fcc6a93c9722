/**
 * The studio's Table 1: stored evaluations of benchmark presets, the latest of each benchmark
 * chosen by default, read with their results for the engine's table1.
 */
import type { BenchmarkRun } from "../../engine/eval/table1.ts";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import { BENCHMARK_PRESETS } from "../../engine/eval/dataset/presets.ts";
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

const presetRank = (e: Evaluation) => {
  const i = BENCHMARK_PRESETS.findIndex((p) => p.id === e.benchmark?.id);
  return i < 0 ? BENCHMARK_PRESETS.length : i;
};

/**
 * The chosen evaluations as Table 1's columns: in the presets' order (older first within one), so
 * a column keeps its place whichever benchmark was run last.
 */
export function table1Columns(chosen: readonly Evaluation[]): Evaluation[] {
  return [...chosen].sort((a, b) => presetRank(a) - presetRank(b) || a.createdAt - b.createdAt);
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
