// The response cache under an evaluation that is resumed: each task (item, strategy, repeat) owns
// its answers, so a resumed or repeated evaluation makes exactly the calls a fresh one would, and
// never hands one stored answer to two tasks (or to two steps of one task).
import { describe, expect, it } from "vitest";
import type { ResponseCache } from "../llm/cache.ts";
import { emptyCacheStats, memoryCacheStore, withCache } from "../llm/cache.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Worker } from "../schema/worker.ts";
import { EvalRun } from "./runner.ts";
import {
  collect,
  evaluation,
  items,
  until,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import { resultKey } from "./schema.ts";
import { JudgeMeter } from "./judge-meter.ts";
import { judgeScorer } from "./scorers/judge.ts";
import { mathScorer } from "./scorers/math.ts";

const SOLVER = worker("solver");

const text = (r: ChatRequest) => r.messages.map((m) => m.content).join("\n");

/** An upstream whose every answer is new ("#n", then "Answer: 7"), so a reused answer shows. */
function upstream(gateAt?: { call: number; gate: Promise<void> }) {
  return createFakeBackend((_r, n) => ({
    text: `#${n}\nAnswer: 7`,
    usage: { promptTokens: 10, completionTokens: 5, estimated: false },
    ...(gateAt && n === gateAt.call ? { gate: gateAt.gate } : {}),
  }));
}

/** A page load: a fresh cache object over the one store (what a reload or a new process does). */
function session(store: ReturnType<typeof memoryCacheStore>): ResponseCache {
  return { store, mode: "read-write", stats: emptyCacheStats(), repeats: "distinct" };
}

/** Runs `e` over `n` items through `cache`; `previous`/`partials` as a resume passes them. */
async function evaluate(
  e: Evaluation,
  n: number,
  cache: ResponseCache,
  up: ReturnType<typeof upstream>,
  more: { previous?: EvalResult[]; partials?: Map<string, RunRecord> } = {},
) {
  return collect({
    evaluation: e,
    items: items(n),
    backendFor: (w: Worker) => withCache(up, cache, w),
    taskConcurrency: 1,
    previous: more.previous,
    partials: more.partials,
  });
}

const answers = (rs: EvalResult[]) =>
  Object.fromEntries(rs.map((r) => [resultKey(r), r.answer ?? ""]));

describe("a resumed evaluation and the response cache", () => {
  it("a chain resumed after single:solver asks its own first step (the same request) upstream", async () => {
    const store = memoryCacheStore();
    const up = upstream();
    const single = { kind: "single", worker: "solver" } as const;
    const chain = { kind: "chain" } as const;
    // Session 1 got as far as single:solver on the item; the page was then reloaded.
    const first = await evaluate(
      evaluation([SOLVER], { strategies: [single], concurrency: 1 }),
      1,
      session(store),
      up,
    );
    expect(up.calls).toHaveLength(1);
    // Session 2 resumes the evaluation, whose strategies are single:solver and chain.
    const both = evaluation([SOLVER], { strategies: [single, chain], concurrency: 1 });
    const second = await evaluate(both, 1, session(store), up, { previous: first.results });
    // The chain's three steps are calls of its own, none from the cache...
    expect(up.calls).toHaveLength(4);
    // ...though its first step sent word for word what single:solver sent.
    expect(text(up.calls[1]!)).toBe(text(up.calls[0]!));
    expect(second.records[0]!.totals.cachedCalls ?? 0).toBe(0);
    const step0 = second.records[0]!.rounds[0]!.steps[0]!;
    expect(step0.output).toBe("#1\nAnswer: 7");

    // The whole evaluation again (a scorer fixed): every task finds its own answers, no call.
    const again = await evaluate(both, 1, session(store), up);
    expect(up.calls).toHaveLength(4);
    expect(answers(again.results)).toEqual(answers([...first.results, ...second.results]));
    expect(again.records.map((r) => r.rounds[0]!.steps.map((s) => s.output))).toEqual([
      ["#0\nAnswer: 7"],
      ["#1\nAnswer: 7", "#2\nAnswer: 7", "#3\nAnswer: 7"],
    ]);
  });

  it("repeat 1 resumed after repeat 0 is a new sample, and a re-run replays both", async () => {
    const store = memoryCacheStore();
    const up = upstream();
    const once = evaluation([SOLVER], { repeats: 1, concurrency: 1 });
    const first = await evaluate(once, 2, session(store), up);
    expect(up.calls).toHaveLength(2);
    const twice = evaluation([SOLVER], { repeats: 2, concurrency: 1 });
    const second = await evaluate(twice, 2, session(store), up, { previous: first.results });
    expect(up.calls).toHaveLength(4);
    expect(second.results.map((r) => [r.repeat, r.cachedCalls ?? 0])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    const all = answers([...first.results, ...second.results]);
    expect(new Set(Object.values(all)).size).toBe(4);
    // A new evaluation over the same items, strategies and repeats: all four from the cache.
    const again = await evaluate(twice, 2, session(store), up);
    expect(up.calls).toHaveLength(4);
    expect(again.results.every((r) => r.cachedCalls === 1 && r.cost === 0)).toBe(true);
    expect(answers(again.results)).toEqual(all);
  });

  it("a judge's verdict is each task's own: the same answer of another strategy, resumed, is judged anew", async () => {
    const store = memoryCacheStore();
    const workers = createFakeBackend([{ text: "Answer: 7" }]);
    const judge = createFakeBackend([{ text: "VERDICT: CORRECT" }]);
    const judged = async (strategies: string[], previous?: EvalResult[]) => {
      const cache = session(store);
      const meter = new JudgeMeter(withCache(judge, cache, worker("judge")), undefined, {
        maxAttempts: 1,
      });
      const pool = [worker("a"), worker("b")];
      return collect({
        evaluation: evaluation(pool, {
          strategies: strategies.map((w) => ({ kind: "single" as const, worker: w })),
          scorer: { id: "judge", options: {}, version: 1 },
          concurrency: 1,
        }),
        items: items(1),
        // Both workers answer alike, so the judge is asked the same thing for each.
        backendFor: (w) => withCache(workers, cache, w),
        taskConcurrency: 1,
        scorer: judgeScorer({ backend: meter.backend }),
        judgeMeter: meter,
        previous,
      });
    };
    const first = await judged(["a"]);
    expect(judge.calls).toHaveLength(1);
    const second = await judged(["a", "b"], first.results);
    expect(second.results.map((r) => r.strategy)).toEqual(["single:b"]);
    expect(judge.calls).toHaveLength(2);
    expect(text(judge.calls[1]!)).toBe(text(judge.calls[0]!));
    // The whole evaluation again: both verdicts from the cache.
    await judged(["a", "b"]);
    expect(judge.calls).toHaveLength(2);
    expect(workers.calls).toHaveLength(2);
  });

  it("best-of-n continued from a partial asks its unfinished attempt upstream, not a kept one's answer", async () => {
    const store = memoryCacheStore();
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The third attempt is held until the session is cut short (a reload).
    const up = upstream({ call: 2, gate });
    const bestOf = evaluation([SOLVER], {
      strategies: [{ kind: "best-of-n", n: 3 }],
      concurrency: 4,
    });
    const partials = new Map<string, RunRecord>();
    const cache = session(store);
    const run = new EvalRun({
      evaluation: bestOf,
      items: items(1),
      scorer: mathScorer(),
      retry: { maxAttempts: 1 },
      backendFor: (w) => withCache(up, cache, w),
      onResult: () => undefined,
      onPartial: (key, rec) => void (rec ? partials.set(key, rec) : partials.delete(key)),
    });
    const done = run.run();
    // Two attempts answered and stored, the third in flight: the page goes away.
    await until(() => up.calls.length === 3 && store.entries.size === 2);
    run.pause();
    open();
    run.cancel();
    await done;
    const partial = [...partials.values()][0]!;
    const kept = partial.rounds[0]!.steps.filter((s) => s.status === "done").map((s) => s.output);
    expect(kept).toEqual(["#0\nAnswer: 7", "#1\nAnswer: 7"]);
    // A later session continues the item from its partial.
    const resumed = await evaluate(bestOf, 1, session(store), up, { partials });
    const candidates = resumed.records[0]!.rounds[0]!.steps.slice(0, 3).map((s) => s.output);
    expect(new Set(candidates).size).toBe(3);
    // The unfinished attempt and the judging step: two calls, neither answered by the cache.
    expect(up.calls).toHaveLength(5);
  });
});
