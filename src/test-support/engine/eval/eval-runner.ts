// Shared pieces of the evaluation runner's tests: a pool on one origin, an evaluation, and a run
// that collects its results, records and progress.
import type { ChatBackend } from "../../../engine/llm/types.ts";
import type { RunRecord } from "../../../engine/schema/record.ts";
import type { Pool, Worker } from "../../../engine/schema/worker.ts";
import type { EvalItem } from "../../../engine/eval/dataset/item-schema.ts";
import type { EvalProgress, EvalRunOptions } from "../../../engine/eval/runner.ts";
import { EvalRun } from "../../../engine/eval/runner.ts";
import type { EvalResult, Evaluation } from "../../../engine/eval/schema.ts";
import { EvalResultSchema } from "../../../engine/eval/schema.ts";
import { mathScorer } from "../../../engine/eval/scorers/math.ts";

export const worker = (name: string, price?: { input: number; output: number }): Worker => ({
  id: name,
  name,
  kind: "openai",
  baseURL: "http://models.test/v1",
  model: name,
  temperature: 0.2,
  maxTokens: 256,
  prefill: false,
  price,
});

/** The evaluation's Conductor: its own origin, deterministic, priced only when `price` is given. */
export const conductorConfig = (price?: { input: number; output: number }) => ({
  kind: "openai" as const,
  baseURL: "http://conductor.test/v1",
  model: "c",
  temperature: 0,
  maxTokens: 64,
  ...(price ? { price } : {}),
});

export const items = (n: number, extra: Partial<EvalItem> = {}): EvalItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    question: `Question ${i}`,
    expected: "7",
    ...extra,
  }));

export function evaluation(pool: Pool, over: Partial<Evaluation> = {}): Evaluation {
  return {
    format: "conductor-studio-eval",
    version: 1,
    id: "ev",
    name: "t",
    createdAt: 0,
    dataset: { name: "d", hash: "h", size: 4 },
    strategies: pool.map((w) => ({ kind: "single" as const, worker: w.name })),
    repeats: 1,
    seed: 1,
    scorer: { id: "math", options: {}, version: 1 },
    pool,
    conductor: null,
    concurrency: 2,
    maxCost: null,
    ...over,
  };
}

export interface Collected {
  results: EvalResult[];
  records: RunRecord[];
  progress: EvalProgress[];
  run: EvalRun;
  outcome: Awaited<ReturnType<EvalRun["run"]>>;
}

/** Runs an evaluation to its end with a fresh scorer and no retries, collecting everything. */
export async function collect(
  o: Omit<EvalRunOptions, "scorer" | "onResult"> & Partial<Pick<EvalRunOptions, "scorer">>,
): Promise<Collected> {
  const results: EvalResult[] = [];
  const records: RunRecord[] = [];
  const progress: EvalProgress[] = [];
  const run = new EvalRun({
    scorer: mathScorer(),
    retry: { maxAttempts: 1 },
    ...o,
    onResult: (r, rec) => {
      results.push(r);
      records.push(rec);
    },
    onProgress: (p) => progress.push(p),
  });
  const outcome = await run.run();
  return { results, records, progress, run, outcome };
}

type Outcome = Collected["outcome"];

/** The outcome a test expects: no errors, nothing skipped and no cap block unless `o` says so. */
export const expectedOutcome = (
  o: Pick<Outcome, "status" | "done" | "total" | "cost"> & Partial<Outcome>,
): Outcome => ({ errors: 0, skipped: [], capBlock: null, ...o });

/** Resolves once `cond` holds, checking after each macrotask (never a timer); throws if it never does. */
export async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  if (!cond()) throw new Error("until: the condition never held");
}

/** Lets the runner go on for a while (50 macrotasks): what it has not started by then waits. */
export async function idle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
}

export type { ChatBackend };

/** A right single:a result stored by an earlier session, at `cost`. */
export const storedResult = (
  item: string,
  cost: number,
  over: Partial<EvalResult> = {},
): EvalResult =>
  EvalResultSchema.parse({
    item,
    strategy: "single:a",
    repeat: 0,
    correct: true,
    score: 1,
    answer: "Answer: 7",
    expected: "7",
    tokens: 1,
    cost,
    latencyMs: 1,
    runId: `old-${item}`,
    ...over,
  });
