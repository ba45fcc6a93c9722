import { describe, expect, it } from "vitest";
import type { ChatBackend } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Pool } from "../schema/worker.ts";
import { evaluation, items, worker } from "../../test-support/engine/eval/eval-runner.ts";
import { OriginLimiter } from "./limiter.ts";
import { EvalRun } from "./runner.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import { mathScorer } from "./scorers/math.ts";
import { summarise } from "./report.ts";

const POOL: Pool = [worker("right", { input: 1000, output: 1000 }), worker("wrong")];
const ITEMS = items(6);

/** The evaluation of these tests: both workers alone and a mixture, over six items. */
const threeWays = (over: Partial<Evaluation> = {}): Evaluation =>
  evaluation(POOL, {
    dataset: { name: "d", hash: "h", size: ITEMS.length },
    strategies: [
      { kind: "single", worker: "right" },
      { kind: "single", worker: "wrong" },
      { kind: "moa", aggregator: "right" },
    ],
    ...over,
  });

/** Answers after a few microtasks, counting the calls open at once. */
function counting(
  answer: string,
  stats: { active: number; max: number; calls: number },
  fail?: () => LlmError | null,
  usage = { promptTokens: 10, completionTokens: 5, estimated: false },
): ChatBackend {
  return {
    label: answer,
    continuesAssistant: false,
    async *stream() {
      stats.calls++;
      stats.active++;
      stats.max = Math.max(stats.max, stats.active);
      try {
        for (let i = 0; i < 5; i++) await Promise.resolve();
        const err = fail?.();
        if (err) throw err;
        yield { type: "delta", text: answer };
        yield { type: "usage", usage };
      } finally {
        stats.active--;
      }
    },
  };
}

async function runAll(
  ev: Evaluation,
  previous: EvalResult[] = [],
  stats = { active: 0, max: 0, calls: 0 },
  usage?: { promptTokens: number; completionTokens: number; estimated: boolean },
) {
  const results: EvalResult[] = [];
  const records: RunRecord[] = [];
  const run = new EvalRun({
    evaluation: ev,
    items: ITEMS,
    scorer: mathScorer(),
    backendFor: (w) =>
      counting(w.name === "right" ? "Answer: 7" : "Answer: 8", stats, undefined, usage),
    previous,
    onResult: (r, rec) => {
      results.push(r);
      records.push(rec);
    },
    retry: { maxAttempts: 1 },
  });
  const outcome = await run.run();
  return { results, records, outcome, stats };
}

// Pause, resume and cancel are pinned in runner-control.test.ts; errors in runner-errors.test.ts.
describe("evaluation runner", () => {
  it("gives each worker the answer-format instruction once, at the end of the question", async () => {
    const { records } = await runAll(threeWays());
    const instruction = 'End your reply with a line "Answer: <value>"';
    const steps = records.flatMap((r) => r.rounds.flatMap((round) => round.steps));
    expect(steps.length).toBe(6 * (1 + 1 + 3));
    for (const step of steps) {
      expect(step.subtask).not.toContain(instruction);
      const text = step.messages.map((m) => m.content).join("\n");
      expect(text.split(instruction).length - 1).toBe(1);
    }
  });

  it("runs every (item, strategy) through the engine runner and scores it", async () => {
    const { results, records, outcome, stats } = await runAll(threeWays());
    expect(outcome).toMatchObject({ status: "finished", done: 18, total: 18 });
    const table = summarise(results, ["single:right", "single:wrong", "moa"]);
    expect(table.map((r) => r.accuracy)).toEqual([1, 0, 1]);
    expect(table[2]!.callsPerQuestion).toBe(3);
    expect(
      records.every((r) => r.status === "done" && r.question.includes('"Answer: <value>"')),
    ).toBe(true);
    expect(new Set(results.map((r) => r.runId)).size).toBe(18);
    expect(results.find((r) => r.strategy === "single:right")!.cost).toBeCloseTo(0.015);
    // Concurrency per origin: both workers share one origin with a limit of 2.
    expect(stats.max).toBe(2);
  });

  it("resumes: finished results are never run again", async () => {
    const first = await runAll(threeWays());
    const kept = first.results.filter((r) => r.item !== "q5");
    const again = await runAll(threeWays(), kept);
    expect(again.results.map((r) => r.item)).toEqual(["q5", "q5", "q5"]);
    expect(again.outcome).toMatchObject({ done: 18, total: 18 });
    expect(again.stats.calls).toBe(5);
  });

  it("starts nothing that the estimate says would pass the spending cap", async () => {
    // A question costs $0.80 (800 tokens at $1000/M); the prior estimate is about $0.76.
    const ev = threeWays({ strategies: [{ kind: "single", worker: "right" }], maxCost: 3 });
    const usage = { promptTokens: 200, completionTokens: 600, estimated: false };
    const { results, outcome } = await runAll(ev, [], undefined, usage);
    expect(outcome.status).toBe("cost_cap");
    expect(results).toHaveLength(3);
    expect(outcome.cost).toBeCloseTo(2.4);
    // Resumed with the spend so far, the next question would pass the cap: nothing starts.
    const again = await runAll(ev, results, undefined, usage);
    expect(again.results).toHaveLength(0);
    expect(again.outcome.status).toBe("cost_cap");
  });

  it("halves an origin's limit on 429 and raises it back slowly", async () => {
    const limiter = new OriginLimiter(4);
    const stats = { active: 0, max: 0, calls: 0 };
    let n = 0;
    const backend = limiter.wrap(
      counting("x", stats, () => (n++ === 0 ? new LlmError("rate_limited") : null)),
      "http://a",
    );
    const signal = new AbortController().signal;
    const drain = async () => {
      for await (const _ of backend.stream({ messages: [], temperature: 0, maxTokens: 1 }, signal))
        void _;
    };
    await expect(drain()).rejects.toThrow();
    expect(limiter.limits()).toEqual({ "http://a": 2 });
    for (let i = 0; i < 16; i++) await drain();
    expect(limiter.limits()).toEqual({ "http://a": 3 });
    expect(new OriginLimiter(4).gate("webllm").limit).toBe(1);
  });
});
