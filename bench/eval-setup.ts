// The evaluation both evaluation benchmarks run (bench/eval.ts over HTTP, bench/eval-memory.ts in
// process): four workers and nine strategies, one question set.
import type { Evaluation } from "../src/engine/eval/schema.ts";
import type { Strategy } from "../src/engine/eval/strategy.ts";
import type { Pool, Price } from "../src/engine/schema/worker.ts";

/** The Conductor's plan in both: two steps, the second seeing the first. */
export const BENCH_PLAN =
  'model_id = [0, 1]\nsubtasks = ["Solve it.", "Check and answer."]\naccess_list = [[], ["all"]]';
export const BENCH_WORKERS = ["w0", "w1", "w2", "w3"];

/** The conductor, each worker alone, MoA, chain, best-of-3 and a fixed two-step workflow. */
export const BENCH_STRATEGIES: Strategy[] = [
  { kind: "conductor", rounds: 0 },
  ...BENCH_WORKERS.map((w): Strategy => ({ kind: "single", worker: w })),
  { kind: "moa" },
  { kind: "chain" },
  { kind: "best-of-n", n: 3 },
  {
    kind: "workflow",
    steps: [
      { worker: "w0", subtask: "Solve it.", access: [] },
      { worker: "w1", subtask: "Answer.", access: "all" },
    ],
  },
];

/** An evaluation of `size` questions with every worker and the Conductor at `baseURL`. */
export function benchEvaluation(
  size: number,
  o: { baseURL: string; concurrency: number; price?: Price },
): Evaluation {
  const pool: Pool = BENCH_WORKERS.map((m) => ({
    id: m,
    name: m,
    kind: "openai",
    baseURL: o.baseURL,
    model: m,
    temperature: 0.2,
    maxTokens: 64,
    prefill: false,
    ...(o.price ? { price: o.price } : {}),
  }));
  return {
    format: "conductor-studio-eval",
    version: 1,
    id: "bench",
    name: "bench",
    createdAt: 0,
    dataset: { name: "bench", hash: "-", size },
    strategies: BENCH_STRATEGIES,
    repeats: 1,
    seed: 0,
    scorer: { id: "math", options: {}, version: 1 },
    pool,
    conductor: {
      kind: "openai",
      baseURL: o.baseURL,
      model: "conductor",
      temperature: 0.2,
      maxTokens: 256,
    },
    concurrency: o.concurrency,
    maxCost: null,
  };
}
