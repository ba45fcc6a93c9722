import { describe, expect, it } from "vitest";
import { rescoreResults } from "./rescore.ts";
import type { EvalResult } from "./schema.ts";
import { EvalResultSchema } from "./schema.ts";
import { evaluation, worker } from "../../test-support/engine/eval/eval-runner.ts";
import { mathScorer } from "./scorers/math.ts";
import type { Scorer, ScoredItem } from "./scorers/types.ts";

const line = (item: string, answer: string | null, over: Partial<EvalResult> = {}): EvalResult =>
  EvalResultSchema.parse({
    item,
    strategy: "single:a",
    repeat: 0,
    correct: false,
    score: 0,
    answer,
    expected: "0.5",
    tokens: 1,
    cost: 0.25,
    latencyMs: 1,
    runId: `r-${item}`,
    scoredBy: { id: "exact", version: 1 },
    ...over,
  });

const EV = evaluation([worker("a")], { scorer: { id: "exact", options: {}, version: 1 } });

describe("re-scoring", () => {
  it("scores stored answers again with another scorer, stamping each with its version", async () => {
    const results = [
      line("q1", "Answer: 1/2"),
      line("q2", "Answer: 0.7"),
      line("q3", null, { reason: "The run gave no answer." }),
      line("q4", null, {
        correct: null,
        error: { stage: "worker", code: "auth", message: "401" },
        scoredBy: undefined,
      }),
    ];
    const math = mathScorer();
    const out = await rescoreResults({
      evaluation: EV,
      results,
      scorer: math,
      signal: new AbortController().signal,
    });
    expect(out.results.map((r) => [r.item, r.correct, r.scoredBy?.version ?? null])).toEqual([
      ["q1", true, math.version],
      ["q2", false, math.version],
      ["q3", false, math.version],
      ["q4", null, null],
    ]);
    expect(out).toMatchObject({ changed: 1, errors: 1, cancelled: false });
    expect(out.results[0]).toMatchObject({ extracted: "1/2", cost: 0.25, runId: "r-q1", score: 1 });
    expect(out.results[3]).toBe(results[3]); // an errored result is left as it is
    expect(out.results.every((r) => r.scoredBy?.id !== "exact")).toBe(true);
  });

  it("gives the scorer the question as posed and the item's tests, never calling a model", async () => {
    const seen: ScoredItem[] = [];
    const spy: Scorer = {
      id: "judge",
      version: 3,
      score: (answer, item) => {
        seen.push(item);
        return Promise.resolve({
          correct: null,
          score: 0,
          extracted: null,
          reason: "The judge failed: 500",
        });
      },
    };
    const out = await rescoreResults({
      evaluation: EV,
      results: [line("q1", "Answer: 0.5")],
      items: [{ id: "q1", question: "Half of one?", expected: "0.5", tests: [1] }],
      scorer: spy,
      signal: new AbortController().signal,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.question).toMatch(/^Half of one\?\n\n/);
    expect(seen[0]).toMatchObject({ expected: "0.5", tests: [1] });
    expect(out.results[0]).toMatchObject({
      correct: null,
      reason: "The judge failed: 500",
      scoredBy: { id: "judge", version: 3 },
    });
  });

  it("uses the last line of a key, and stops when cancelled keeping the rest as they were", async () => {
    const controller = new AbortController();
    const stopping: Scorer = {
      id: "math",
      version: 9,
      score: () => {
        controller.abort();
        return Promise.resolve({ correct: true, score: 1, extracted: "x" });
      },
    };
    const results = [line("q1", "Answer: 3"), line("q1", "Answer: 0.5"), line("q2", "Answer: 2")];
    const out = await rescoreResults({
      evaluation: EV,
      results,
      scorer: stopping,
      signal: controller.signal,
    });
    expect(out.cancelled).toBe(true);
    expect(out.results.map((r) => [r.answer, r.scoredBy?.version])).toEqual([
      ["Answer: 0.5", 1],
      ["Answer: 2", 1],
    ]);
  });
});
