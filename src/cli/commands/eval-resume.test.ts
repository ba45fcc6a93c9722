import { describe, it } from "vitest";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { EvaluationSchema } from "../../engine/eval/schema.ts";
import { definitionChanges, mismatchMessage } from "./eval-resume.ts";

const base: Evaluation = EvaluationSchema.parse({
  format: "conductor-studio-eval",
  version: 1,
  id: "r.jsonl",
  name: "q.jsonl",
  createdAt: 1,
  dataset: { name: "q.jsonl", hash: "h1", size: 2 },
  strategies: [
    { kind: "conductor", rounds: 0 },
    { kind: "single", worker: "A" },
  ],
  repeats: 1,
  seed: 0,
  scorer: { id: "math", options: {}, version: 1 },
  pool: [
    {
      id: "w0",
      name: "A",
      kind: "openai",
      baseURL: "http://a/v1",
      model: "a",
      temperature: 0.2,
      maxTokens: 4096,
      prefill: false,
    },
    {
      id: "w1",
      name: "B",
      kind: "openai",
      baseURL: "http://b/v1",
      model: "b",
      temperature: 0.2,
      maxTokens: 4096,
      prefill: false,
    },
  ],
  conductor: {
    kind: "openai",
    baseURL: "http://c/v1",
    model: "c",
    temperature: 0.2,
    maxTokens: 1024,
  },
  concurrency: 4,
  maxCost: null,
});

describe("resume: the same evaluation or not", () => {
  it("is the same when only concurrency, the cap, repeats or the strategy list's members change", ({
    expect,
  }) => {
    const later = {
      ...base,
      createdAt: 2,
      concurrency: 8,
      maxCost: 5,
      repeats: 3,
      strategies: [base.strategies[0]!, { kind: "moa" as const }],
    };
    expect(definitionChanges(base, later)).toEqual([]);
  });

  it("names each change: questions, seed, a strategy, a worker, the pool, the Conductor, settings, the scorer", ({
    expect,
  }) => {
    const later = {
      ...base,
      dataset: { ...base.dataset, hash: "h2" },
      seed: 7,
      strategies: [{ kind: "conductor" as const, rounds: 2 }],
      pool: [{ ...base.pool[0]!, temperature: 0.7 }, base.pool[1]!],
      conductor: { ...base.conductor!, model: "c2" },
      scorer: { id: "exact", options: {}, version: 1 },
      runSettings: { namedWorkers: true, maxCalls: null },
    };
    expect(definitionChanges(base, later)).toEqual([
      { kind: "run", text: "the questions: another dataset (hash h1 → h2)" },
      { kind: "run", text: "--seed 0 → 7" },
      { kind: "run", text: "strategy conductor: rounds 0 → 2" },
      { kind: "run", text: 'worker "A": temperature 0.2 → 0.7' },
      { kind: "run", text: 'the Conductor: model "c" → "c2"' },
      { kind: "run", text: "config: namedWorkers false → true" },
      { kind: "scorer", text: 'scorer: id "math" → "exact"' },
    ]);
    const renamed = { ...base, pool: [base.pool[1]!, base.pool[0]!] };
    expect(definitionChanges(base, renamed)).toEqual([
      { kind: "run", text: "the pool: A, B → B, A" },
    ]);
    expect(mismatchMessage("r.jsonl", definitionChanges(base, renamed))).toBe(
      "r.jsonl holds results of a different evaluation; resuming would mix them. What changed:\n  - the pool: A, B → B, A\nRun again with --new to start over (the earlier results are kept, renamed), or choose another --out.",
    );
  });
});
