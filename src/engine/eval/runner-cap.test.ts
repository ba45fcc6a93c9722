// The spending cap's scheduling, step by step: which runs start beside one another, which wait for
// room, when a waiting run starts, and what the runner reports when the cap refuses one. Every
// call is held open until the test settles it (with what it cost, or a failure), so each step is
// observed while it happens.
import { describe, expect, it } from "vitest";
import type { ChatBackend } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { EvalProgress } from "./runner.ts";
import { EvalRun } from "./runner.ts";
import {
  evaluation,
  expectedOutcome,
  idle,
  items,
  storedResult,
  until,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { EvalResult } from "./schema.ts";
import { resultKey } from "./schema.ts";
import { mathScorer } from "./scorers/math.ts";

// At $250,000/M output, one output token costs exactly $0.25 (a power of two: sums stay exact).
// Its prior (a typical 600-token output) is $150 a run.
const PRICE = { input: 0, output: 250_000 };
const PRIOR = 150;

/** One call held open: which worker and question it is, and how the test ends it. */
interface Held {
  worker: string;
  item: string;
  /** Answers 7 with `tokens` output tokens ($0.25 each), or fails with `error`. */
  settle: (end: { tokens: number } | { error: LlmError }) => void;
}

/** Every worker's calls wait for the test: `open` lists those not settled yet, in order. */
function heldCalls() {
  const open: Held[] = [];
  let most = 0;
  const backendFor = (w: { name: string }): ChatBackend => ({
    label: w.name,
    continuesAssistant: false,
    async *stream(request, signal) {
      const text = request.messages.map((m) => m.content).join("\n");
      const item = /Question (\d+)/.exec(text)?.[1];
      const end = await new Promise<{ tokens: number } | { error: LlmError }>((resolve, reject) => {
        const held: Held = {
          worker: w.name,
          item: `q${item}`,
          settle: (e) => {
            open.splice(open.indexOf(held), 1);
            resolve(e);
          },
        };
        open.push(held);
        most = Math.max(most, open.length);
        signal.addEventListener(
          "abort",
          () => {
            if (open.includes(held)) open.splice(open.indexOf(held), 1);
            reject(new LlmError("aborted"));
          },
          { once: true },
        );
      });
      if ("error" in end) throw end.error;
      yield { type: "delta", text: "Answer: 7" };
      yield {
        type: "usage",
        usage: { promptTokens: 0, completionTokens: end.tokens, estimated: false },
      };
    },
  });
  /** The open call of `worker` on `item`; fails the test when there is none. */
  const call = (item: string, worker = "a") => {
    const held = open.find((h) => h.item === item && h.worker === worker);
    if (!held) throw new Error(`no open call of ${worker} on ${item}; open: ${names().join(", ")}`);
    return held;
  };
  const names = () => open.map((h) => `${h.worker}:${h.item}`);
  /** The open calls once `n` are (and `also` holds) and the runner has had time to start more. */
  const openOnce = async (n: number, also: (open: string[]) => boolean = () => true) => {
    await until(() => names().length === n && also(names()));
    await idle();
    return names();
  };
  return {
    backendFor,
    call,
    /** The open calls as worker:item, in the order they started. */
    names,
    openOnce,
    /** The most calls that were open at once. */
    get most() {
      return most;
    },
  };
}

/** An evaluation over held calls, started: `done` is its end, `partials` the keys it cut short. */
function start(
  calls: ReturnType<typeof heldCalls>,
  o: { workers?: string[]; maxCost: number; items: number; width: number; previous?: EvalResult[] },
) {
  const results: EvalResult[] = [];
  const progress: EvalProgress[] = [];
  const partials: string[] = [];
  const run = new EvalRun({
    evaluation: evaluation(
      (o.workers ?? ["a"]).map((n) => worker(n, PRICE)),
      { maxCost: o.maxCost, concurrency: o.width },
    ),
    items: items(o.items),
    scorer: mathScorer(),
    backendFor: calls.backendFor,
    taskConcurrency: o.width,
    retry: { maxAttempts: 1 },
    previous: o.previous ?? [],
    onResult: (r) => void results.push(r),
    onPartial: (key, record) => void (record && partials.push(key)),
    onProgress: (p) => progress.push(p),
  });
  const done = run.run().then((outcome) => ({ outcome, results, progress }));
  return { run, done, partials };
}

/** $0.25 spent on q0 by an earlier session. */
const Q0_SPENT = [storedResult("q0", 0.25)];

describe("the spending cap's scheduling", () => {
  it("starts runs while their estimates fit beside what is spent and reserved; the next starts once a run frees room", async () => {
    // Spent $0.25 on q0; each run is estimated at the measured $0.25; cap $1: q1, q2 and q3 fit
    // ($1 exactly), q4 does not.
    const calls = heldCalls();
    const { done } = start(calls, { maxCost: 1, items: 6, width: 4, previous: Q0_SPENT });
    expect(await calls.openOnce(3)).toEqual(["a:q1", "a:q2", "a:q3"]);
    // q1 costs nothing: its $0.25 reserve is freed, and the mean falls to $0.125, so q4 and q5
    // ($0.125 each) now fit beside q2 and q3 ($0.50 reserved) and the $0.25 spent.
    calls.call("q1").settle({ tokens: 0 });
    expect(await calls.openOnce(4)).toEqual(["a:q2", "a:q3", "a:q4", "a:q5"]);
    for (const q of ["q2", "q3", "q4", "q5"]) calls.call(q).settle({ tokens: 0 });
    const c = await done;
    expect(c.outcome).toEqual(
      expectedOutcome({ status: "finished", done: 6, total: 6, cost: 0.25 }),
    );
  });

  it("refuses, once nothing is running, a run that would pass the cap, and says which with what figures", async () => {
    // $0.25 spent; cap $0.875: q1 and q2 start ($0.75 committed), q3 waits for them.
    const calls = heldCalls();
    const { done } = start(calls, { maxCost: 0.875, items: 5, width: 4, previous: Q0_SPENT });
    expect(await calls.openOnce(2)).toEqual(["a:q1", "a:q2"]);
    // q1 cost what it was estimated at: no room for q3 yet, and q2 is still running.
    calls.call("q1").settle({ tokens: 1 });
    await idle();
    expect(calls.names()).toEqual(["a:q2"]);
    calls.call("q2").settle({ tokens: 1 });
    const c = await done;
    // Nothing is running and $0.75 is spent: q3's $0.25 would pass $0.875. It is refused, and so
    // is q4; only the first refusal is the block.
    expect(c.results.map((r) => r.item)).toEqual(["q1", "q2"]);
    expect(c.outcome).toEqual({
      status: "cost_cap",
      done: 3,
      total: 5,
      cost: 0.75,
      errors: 0,
      skipped: [{ strategy: "single:a", items: 2, estimate: 0.25, basis: "strategy", left: 0.125 }],
      capBlock: { item: "q3", strategy: "single:a", estimate: 0.25, committed: 0.75, cap: 0.875 },
    });
    expect(c.progress.at(-1)!.skipped).toEqual(c.outcome.skipped);
    expect(calls.most).toBe(2);
  });

  it("blocks on the first task when nothing fits, with nothing committed but what was stored", async () => {
    const calls = heldCalls();
    const c = await start(calls, { maxCost: 0.125, items: 2, width: 2 }).done;
    expect(calls.most).toBe(0);
    expect(c.outcome).toMatchObject({
      status: "cost_cap",
      done: 0,
      skipped: [{ strategy: "single:a", items: 2, estimate: PRIOR, basis: "prior", left: 0.125 }],
      capBlock: { item: "q0", strategy: "single:a", estimate: PRIOR, committed: 0, cap: 0.125 },
    });
  });

  it("runs a strategy known only by its prior one item at a time, another strategy beside it, and side by side once measured", async () => {
    const calls = heldCalls();
    const { done } = start(calls, { workers: ["a", "b"], maxCost: 1000, items: 4, width: 4 });
    // Tasks go (q0, a), (q0, b), (q1, a), ...: (q1, a) waits for (q0, a), and nothing passes it.
    expect(await calls.openOnce(2)).toEqual(["a:q0", "b:q0"]);
    // Measured at $0.25, a's items no longer wait on one another; (q1, b) waits for (q0, b).
    calls.call("q0", "a").settle({ tokens: 1 });
    expect(await calls.openOnce(2, (open) => open.includes("a:q1"))).toEqual(["b:q0", "a:q1"]);
    calls.call("q0", "b").settle({ tokens: 1 });
    // Both measured: four runs at once, the task width.
    expect(await calls.openOnce(4)).toEqual(["a:q1", "b:q1", "a:q2", "b:q2"]);
    for (const name of calls.names()) calls.call(name.slice(2), name[0]).settle({ tokens: 1 });
    await until(() => calls.names().length === 2);
    for (const name of calls.names()) calls.call(name.slice(2), name[0]).settle({ tokens: 1 });
    const c = await done;
    expect(c.outcome).toMatchObject({ status: "finished", done: 8, cost: 2, capBlock: null });
    expect(calls.most).toBe(4);
  });

  it("frees a failed run's reserve and its place: the strategy's next item starts beside the others", async () => {
    // Two prior strategies at $150 each under a $300 cap: (q0, a) and (q0, b) fill it.
    const calls = heldCalls();
    const { done } = start(calls, { workers: ["a", "b"], maxCost: 2 * PRIOR, items: 2, width: 4 });
    expect(await calls.openOnce(2)).toEqual(["a:q0", "b:q0"]);
    // (q0, a) fails: nothing was measured, so a is still on its prior, but it has nothing running
    // and its $150 is free again: (q1, a) starts while (q0, b) runs.
    calls.call("q0", "a").settle({ error: new LlmError("auth") });
    expect(await calls.openOnce(2)).toEqual(["b:q0", "a:q1"]);
    calls.call("q0", "b").settle({ tokens: 1 });
    await until(() => calls.names().includes("b:q1"));
    calls.call("q1", "a").settle({ tokens: 1 });
    calls.call("q1", "b").settle({ tokens: 1 });
    const c = await done;
    expect(c.outcome).toMatchObject({ status: "finished", done: 3, errors: 1, cost: 0.75 });
  });

  it("ends at a cancel that comes while a run waits for room: that run never starts", async () => {
    const calls = heldCalls();
    const { run, done, partials } = start(calls, {
      maxCost: 0.75,
      items: 4,
      width: 4,
      previous: Q0_SPENT,
    });
    expect(await calls.openOnce(2)).toEqual(["a:q1", "a:q2"]);
    // q3 waits for room ($1 > $0.75); the cancel aborts q1 and q2, and q3 is never run.
    run.cancel();
    const c = await done;
    expect(c.outcome).toEqual(
      expectedOutcome({ status: "cancelled", done: 1, total: 4, cost: 0.25 }),
    );
    const key = (item: string) => resultKey({ item, strategy: "single:a", repeat: 0 });
    expect(partials.sort()).toEqual([key("q1"), key("q2")].sort());
    expect(c.progress.every((p) => p.running <= 2)).toBe(true);
    expect(calls.most).toBe(2);
  });

  it("does not let a failed attempt, stored or of this session, pull the estimate down", async () => {
    // q0 cost $0.25; q1's stored attempt failed at no cost. The estimate stays $0.25 a run.
    const calls = heldCalls();
    const failed = {
      correct: null,
      error: { stage: "worker" as const, code: "auth", message: "401" },
    };
    const { done } = start(calls, {
      maxCost: 0.625,
      items: 4,
      width: 1,
      previous: [...Q0_SPENT, storedResult("q1", 0, failed)],
    });
    // q1 runs again ($0.50 committed) and fails again, at no cost.
    await until(() => calls.names().length === 1);
    calls.call("q1").settle({ error: new LlmError("auth") });
    // q2 fits ($0.50) and costs $0.25; q3 would pass $0.625.
    await until(() => calls.names().includes("a:q2"));
    calls.call("q2").settle({ tokens: 1 });
    const c = await done;
    expect(c.results.map((r) => [r.item, r.error?.code ?? null])).toEqual([
      ["q1", "auth"],
      ["q2", null],
    ]);
    expect(c.outcome).toMatchObject({
      status: "cost_cap",
      done: 2,
      errors: 1,
      cost: 0.5,
      capBlock: { item: "q3", strategy: "single:a", estimate: 0.25, committed: 0.5, cap: 0.625 },
    });
  });
});
