// Boundaries of the runner that a mutation would move: the cap at exactly its value, the measured
// cost estimate, the time left, the default width, and what a cancel during scoring keeps.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import { OriginLimiter } from "./limiter.ts";
import { EvalRun } from "./runner.ts";
import {
  collect,
  conductorConfig,
  evaluation,
  expectedOutcome,
  items,
  storedResult,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { EvalResult } from "./schema.ts";
import { mathScorer } from "./scorers/math.ts";
import type { Scorer } from "./scorers/types.ts";

// At $250,000/M output, one output token costs exactly $0.25 (a power of two: sums stay exact).
const PRICED = [worker("a", { input: 0, output: 250_000 })];
const QUARTER = { promptTokens: 0, completionTokens: 1, estimated: false };

const quarterly = () => createFakeBackend([{ text: "Answer: 7", usage: QUARTER }]);

/** Runs `n` items one at a time, each at $0.25, under a cap of `maxCost`, after `previous`. */
const underCap = (maxCost: number, n: number, previous: EvalResult[]) =>
  collect({
    evaluation: evaluation(PRICED, { maxCost }),
    items: items(n),
    backendFor: quarterly,
    taskConcurrency: 1,
    previous,
  });

/** $0.50 spent on q0 and q1 by an earlier session. */
const HALF_SPENT = [storedResult("q0", 0.25), storedResult("q1", 0.25)];

describe("evaluation runner: boundaries", () => {
  it("starts a run whose estimate lands exactly on the cap, then stops at the cap", async () => {
    // $0.50 spent on q0, q1; each run $0.25 (the measured mean); cap $1.00: q2 and q3 run.
    const c = await underCap(1, 5, HALF_SPENT);
    expect(c.results.map((r) => r.item)).toEqual(["q2", "q3"]);
    expect(c.outcome).toEqual(expectedOutcome({ status: "cost_cap", done: 4, total: 5, cost: 1 }));
  });

  it("says cost_cap when the last item's spend reaches the cap exactly", async () => {
    const c = await underCap(0.75, 3, HALF_SPENT);
    expect(c.results.map((r) => r.item)).toEqual(["q2"]);
    expect(c.outcome.status).toBe("cost_cap");
  });

  it("estimates from the mean measured cost of finished items, errored ones left out", async () => {
    // Stored: two results of $0.25 and an errored attempt that cost nothing. Mean: $0.25.
    const previous = [
      ...HALF_SPENT,
      storedResult("q2", 0, {
        correct: null,
        error: { stage: "worker", code: "server", message: "500" },
      }),
    ];
    const c = await underCap(1, 6, previous);
    // q2 (the errored one, again) and q3 run; q4 would pass $1.00.
    expect(c.results.map((r) => r.item)).toEqual(["q2", "q3"]);
    expect(c.outcome).toMatchObject({ status: "cost_cap", done: 4, total: 6, errors: 0 });
  });

  it("gives the time left from this session's pace, errored items not left to do", async () => {
    let clock = 1000;
    let n = 0;
    const backend = createFakeBackend(() => {
      clock += 100;
      return n++ === 0 ? { error: new LlmError("auth") } : { text: "Answer: 7" };
    });
    const c = await collect({
      evaluation: evaluation([worker("a")]),
      items: items(3),
      backendFor: () => backend,
      taskConcurrency: 1,
      now: () => clock,
    });
    // After q0 (errored, 100 ms): 2 left at 100 ms each; after q1: 1 left at 200/2 ms each.
    const etas = c.progress.filter((p) => p.running === 0).map((p) => p.etaMs);
    expect(etas).toEqual([null, 200, 100, 0, 0]); // the last after every run has ended
    expect(c.results[1]!.latencyMs).toBe(100);
    expect(c.run.total).toBe(3);
  });

  it("keeps 4 x concurrency runs in flight by default", async () => {
    // Four strategies on four origins, one call at a time each: four runs at once.
    const pool = [0, 1, 2, 3].map((i) => ({ ...worker(`w${i}`), baseURL: `http://o${i}.test/v1` }));
    const hold = new Promise<void>(() => undefined);
    const backend = createFakeBackend([{ text: "x", gate: hold }]);
    const run = new EvalRun({
      evaluation: evaluation(pool, { concurrency: 1 }),
      items: items(2),
      scorer: mathScorer(),
      backendFor: () => backend,
      onResult: () => undefined,
    });
    const done = run.run();
    for (let i = 0; i < 50 && backend.calls.length < 4; i++)
      await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(backend.calls).toHaveLength(4);
    run.cancel();
    expect((await done).status).toBe("cancelled");
  });

  it("records nothing that a cancel during scoring cut short", async () => {
    let run: EvalRun | null = null;
    const cancelling: Scorer = {
      id: "math",
      version: 1,
      score: () => {
        run!.cancel();
        return Promise.resolve({ correct: true, score: 1, extracted: "7" });
      },
    };
    const results: EvalResult[] = [];
    run = new EvalRun({
      evaluation: evaluation([worker("a")]),
      items: items(2),
      scorer: cancelling,
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      taskConcurrency: 1,
      onResult: (r) => void results.push(r),
    });
    expect(await run.run()).toMatchObject({ status: "cancelled", done: 0 });
    expect(results).toEqual([]);
  });

  it("paused and resumed before it runs, it runs everything; it gates the Conductor by its origin", async () => {
    const idle = new EvalRun({
      evaluation: evaluation([worker("a")]),
      items: items(2),
      scorer: mathScorer(),
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      onResult: () => undefined,
    });
    idle.pause();
    idle.resume();
    // A resume() that did nothing would leave the run paused: it would never finish.
    expect(idle.paused).toBe(false);
    expect(await idle.run()).toMatchObject({ status: "finished", done: 2, total: 2 });
    const limiter = new OriginLimiter(2);
    const conductor = conductorConfig();
    await collect({
      evaluation: evaluation([worker("a")], {
        strategies: [{ kind: "conductor", rounds: 0 }],
        conductor,
      }),
      items: items(1),
      limiter,
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      conductorBackend: createFakeBackend([
        { text: 'model_id = [0]\nsubtasks = ["Solve"]\naccess_list = [[]]' },
      ]),
    });
    expect(Object.keys(limiter.limits()).sort()).toEqual([
      "http://conductor.test",
      "http://models.test",
    ]);
  });
});
