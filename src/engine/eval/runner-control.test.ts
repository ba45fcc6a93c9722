// Pause, resume, cancel, the spending cap, progress and the fields of a result: each test pins
// what it names (emptying pause(), resume() or cancel() fails one of them).
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import { OriginLimiter } from "./limiter.ts";
import type { EvalProgress } from "./runner.ts";
import { EvalRun } from "./runner.ts";
import {
  collect,
  evaluation,
  items,
  until,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { EvalResult } from "./schema.ts";
import { mathScorer } from "./scorers/math.ts";

/** Calls that wait for the test to release them, one at a time, in order. */
function gated() {
  const waiting: (() => void)[] = [];
  let released = 0;
  const backend = createFakeBackend(
    () =>
      ({
        text: "Answer: 7",
        usage: { promptTokens: 10, completionTokens: 5, estimated: false },
        gate: new Promise<void>((resolve) => waiting.push(resolve)),
      }) satisfies FakeReply,
  );
  return {
    backend,
    waiting,
    release: () => {
      released++;
      waiting.shift()?.();
    },
    get released() {
      return released;
    },
  };
}

const POOL = [worker("a", { input: 1000, output: 1000 })];

function runner(
  g: ReturnType<typeof gated>,
  over: Partial<ConstructorParameters<typeof EvalRun>[0]> = {},
) {
  const results: EvalResult[] = [];
  const progress: EvalProgress[] = [];
  const run = new EvalRun({
    evaluation: evaluation(POOL, { concurrency: 1 }),
    items: items(4),
    scorer: mathScorer(),
    backendFor: () => g.backend,
    taskConcurrency: 1,
    retry: { maxAttempts: 1 },
    onResult: (r) => void results.push(r),
    onProgress: (p) => progress.push(p),
    ...over,
  });
  return { run, results, progress };
}

describe("evaluation runner: control", () => {
  it("pause aborts the run in flight and starts nothing; resume runs it again and the evaluation finishes", async () => {
    const g = gated();
    const { run, results, progress } = runner(g);
    const done = run.run();
    await until(() => g.waiting.length === 1);
    run.pause();
    expect(run.paused).toBe(true);
    // The run in flight stops at once (its call is aborted), without a result.
    await until(() => progress.at(-1)!.running === 0);
    expect(progress.at(-1)!.paused).toBe(true);
    expect(results).toHaveLength(0);
    // Nothing else starts while paused, however long we wait for it.
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(g.backend.calls).toHaveLength(1);
    run.resume();
    expect(run.paused).toBe(false);
    expect(progress.at(-1)!.paused).toBe(false);
    // q0 first again: its only call had not finished, so it is made again.
    await until(() => g.waiting.length === 2);
    expect(g.backend.calls).toHaveLength(2);
    while (results.length < 4) {
      g.release();
      await until(() => g.waiting.length > 0 || results.length === 4);
    }
    expect(await done).toMatchObject({ status: "finished", done: 4, total: 4, errors: 0 });
    expect(results.map((r) => r.item)).toEqual(["q0", "q1", "q2", "q3"]);
  });

  it("a run waiting for room under the cap does not start once a pause comes", async () => {
    // Under a cap, a strategy nothing has been measured for runs one item at a time: q1 waits for
    // q0 to settle. The pause settles q0 (aborted); q1 must then wait for the resume, not start.
    const g = gated();
    const { run, results } = runner(g, {
      evaluation: evaluation(POOL, { concurrency: 1, maxCost: 100 }),
      taskConcurrency: 2,
    });
    const done = run.run();
    await until(() => g.waiting.length === 1);
    run.pause();
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(g.backend.calls).toHaveLength(1);
    run.resume();
    while (results.length < 4) {
      await until(() => g.waiting.length > 0 || results.length === 4);
      g.release();
    }
    expect(await done).toMatchObject({ status: "finished", done: 4 });
    // q0 twice (its first call was aborted), then q1..q3 once each.
    expect(g.backend.calls).toHaveLength(5);
  });

  it("cancel aborts what is in flight, records none of it, and a later run does it again", async () => {
    const g = gated();
    const { run, results } = runner(g);
    const done = run.run();
    await until(() => g.waiting.length === 1);
    g.release();
    await until(() => results.length === 1 && g.waiting.length === 1);
    run.cancel();
    const outcome = await done;
    expect(outcome).toMatchObject({ status: "cancelled", done: 1, total: 4 });
    expect(results.map((r) => r.item)).toEqual(["q0"]);
    // Nothing started after the cancel: q0 and the cancelled q1 were the only calls.
    expect(g.backend.calls).toHaveLength(2);
    // Cancelling while paused also ends the run (it does not wait for a resume).
    const g2 = gated();
    const paused = runner(g2, { previous: results });
    paused.run.pause();
    const outcome2 = paused.run.run();
    paused.run.cancel();
    expect(await outcome2).toMatchObject({ status: "cancelled", done: 1, total: 4 });
    expect(g2.backend.calls).toHaveLength(0);
    // Resumed: the cancelled q1 runs again, with q2 and q3.
    const rest = await collect({
      evaluation: evaluation(POOL),
      items: items(4),
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      previous: results,
    });
    expect(rest.results.map((r) => r.item)).toEqual(["q1", "q2", "q3"]);
  });

  it("stops at the spending cap once the spend reaches it, aborting runs in flight", async () => {
    // $1/M tokens: the prior estimate is far below the cap, but q0 spends 20,000 tokens ($0.02).
    const cheap = [worker("a", { input: 1, output: 1 })];
    const hold = new Promise<void>(() => undefined);
    const backend = createFakeBackend((req) =>
      JSON.stringify(req.messages).includes("Question 0")
        ? {
            text: "Answer: 7",
            usage: { promptTokens: 10_000, completionTokens: 10_000, estimated: false },
          }
        : { text: "Answer: 7", gate: hold },
    );
    // One stored result measures the strategy ($0.001), so its runs start side by side (with only
    // a prior to go on, a capped strategy runs one item at a time).
    const warm = (
      await collect({
        evaluation: evaluation(cheap),
        items: items(1),
        backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      })
    ).results.map((r) => ({ ...r, item: "warm", cost: 0.001 }));
    const c = await collect({
      evaluation: evaluation(cheap, { maxCost: 0.015, concurrency: 2 }),
      items: items(4),
      backendFor: () => backend,
      taskConcurrency: 2,
      previous: warm,
    });
    expect(c.outcome.status).toBe("cost_cap");
    expect(c.results.map((r) => r.item)).toEqual(["q0"]);
    expect(c.outcome.cost).toBeCloseTo(0.021, 12);
    expect(c.outcome).toMatchObject({ done: 2, total: 5 });
    // q1 had started and was aborted; q2 and q3 never started.
    expect(backend.calls).toHaveLength(2);
  });

  it("counts stored spend against the cap, errored attempts included", async () => {
    const previous = (
      await collect({
        evaluation: evaluation(POOL),
        items: items(1),
        backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      })
    ).results.map((r) => ({
      ...r,
      cost: 0.5,
      error: { stage: "worker" as const, code: "server", message: "x" },
    }));
    const c = await collect({
      evaluation: evaluation(POOL, { maxCost: 0.4 }),
      items: items(2),
      backendFor: () => createFakeBackend([{ text: "Answer: 7" }]),
      previous,
    });
    expect(c.outcome).toMatchObject({ status: "cost_cap", cost: 0.5, done: 0, errors: 1 });
    expect(c.results).toHaveLength(0);
  });

  it("reports progress: done, running, cost and a time left from this session's pace", async () => {
    let t = 1000;
    const c = await collect({
      evaluation: evaluation(POOL, { concurrency: 1 }),
      items: items(2),
      taskConcurrency: 1,
      now: () => (t += 10),
      backendFor: () =>
        createFakeBackend([
          { text: "Answer: 7", usage: { promptTokens: 10, completionTokens: 5, estimated: false } },
        ]),
    });
    const first = c.progress[0]!;
    expect(first).toMatchObject({
      done: 0,
      total: 2,
      running: 0,
      cost: 0,
      etaMs: null,
      paused: false,
    });
    expect(c.progress.some((p) => p.running === 1)).toBe(true);
    const afterOne = c.progress.find((p) => p.done === 1)!;
    expect(afterOne.cost).toBeCloseTo(0.015, 12);
    expect(afterOne.etaMs).toBeGreaterThan(0);
    const last = c.progress.at(-1)!;
    expect(last).toMatchObject({ done: 2, total: 2, running: 0, etaMs: 0 });
    expect(last.cost).toBeCloseTo(0.03, 12);
  });

  it("keeps at most taskConcurrency runs in flight", async () => {
    const g = gated();
    const { run } = runner(g, {
      taskConcurrency: 2,
      evaluation: evaluation(POOL, { concurrency: 4 }),
    });
    const done = run.run();
    await until(() => g.waiting.length === 2);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(g.backend.calls).toHaveLength(2);
    for (let i = 0; i < 4; i++) {
      await until(() => g.waiting.length > 0);
      g.release();
    }
    expect((await done).status).toBe("finished");
  });

  it("gates extra callers (a judge) through the same per-origin limiter", async () => {
    const limiter = new OriginLimiter(1);
    const run = new EvalRun({
      evaluation: evaluation(POOL),
      items: [],
      scorer: mathScorer(),
      backendFor: () => createFakeBackend([{ text: "x" }]),
      limiter,
      onResult: () => undefined,
    });
    const judge = run.gated(worker("judge"), createFakeBackend([{ text: "VERDICT: CORRECT" }]));
    const chunks: string[] = [];
    for await (const ch of judge.stream(
      { messages: [], temperature: 0, maxTokens: 8 },
      new AbortController().signal,
    ))
      if (ch.type === "delta") chunks.push(ch.text);
    expect(chunks.join("")).toContain("VERDICT");
    expect(Object.keys(limiter.limits())).toEqual(["http://models.test"]);
  });

  it("records each result's measured fields", async () => {
    let t = 0;
    const c = await collect({
      evaluation: evaluation(POOL, { seed: 3 }),
      items: items(1, { category: "arith" }),
      now: () => (t += 5),
      backendFor: () =>
        createFakeBackend([
          {
            text: "Work.\nAnswer: 7",
            usage: { promptTokens: 40, completionTokens: 2, estimated: false },
          },
        ]),
    });
    const [r] = c.results;
    expect(r).toMatchObject({
      item: "q0",
      strategy: "single:a",
      repeat: 0,
      correct: true,
      score: 1,
      answer: "Work.\nAnswer: 7",
      expected: "7",
      extracted: "7",
      tokens: 42,
      calls: 1,
      status: "done",
      endReason: expect.any(String) as unknown,
      planFailed: false,
      category: "arith",
      error: null,
      scoredBy: { id: "math", version: mathScorer().version },
    });
    expect(r!.cost).toBeCloseTo(0.042, 12);
    expect(r!.latencyMs).toBeGreaterThan(0);
    expect(r!.finishedAt).toBeGreaterThan(0);
    expect(r!.runId).toBe(c.records[0]!.id);
    expect(c.records[0]!.question).toContain("Question 0");
  });
});
