// Pause and cancel cut runs short at once; what those runs paid for is kept as a partial and
// continued, in the same session or a later one, so no call is ever made twice.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import type { RunRecord } from "../schema/record.ts";
import type { EvalProgress } from "./runner.ts";
import { EvalRun } from "./runner.ts";
import {
  conductorConfig,
  evaluation,
  items,
  until,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { EvalResult } from "./schema.ts";
import { resultKey } from "./schema.ts";
import { mathScorer } from "./scorers/math.ts";

const POOL = [worker("a", { input: 1000, output: 1000 })];
const CHAIN = evaluation(POOL, { strategies: [{ kind: "chain" }], concurrency: 1 });
const Q0 = resultKey({ item: "q0", strategy: "chain", repeat: 0 });
/** Which of the chain's three steps a request is: 0 solve, 1 check, 2 final. */
const stepOf = (r: ChatRequest) => {
  const text = r.messages.map((m) => m.content).join("\n");
  return text.includes("Give the final answer") ? 2 : text.includes("Check the previous") ? 1 : 0;
};
const questionOf = (r: ChatRequest) =>
  /Question (\d)/.exec(r.messages.map((m) => m.content).join("\n"))?.[1];

/** A backend whose check steps (step 1) wait until `open` is called; every call is 15 tokens. */
function backend() {
  let open = () => undefined as void;
  let gate = new Promise<void>((resolve) => (open = resolve));
  const b = createFakeBackend(
    (req) =>
      ({
        text: "Answer: 7",
        usage: { promptTokens: 10, completionTokens: 5, estimated: false },
        ...(stepOf(req) === 1 ? { gate } : {}),
      }) satisfies FakeReply,
  );
  return {
    b,
    open: () => open(),
    /** Later check steps wait again. */
    close: () => (gate = new Promise<void>((resolve) => (open = resolve))),
  };
}

function start(
  be: ReturnType<typeof backend>,
  over: Partial<ConstructorParameters<typeof EvalRun>[0]> = {},
) {
  const results: EvalResult[] = [];
  const records: RunRecord[] = [];
  const progress: EvalProgress[] = [];
  const partials = new Map<string, RunRecord>();
  const run = new EvalRun({
    evaluation: CHAIN,
    items: items(2),
    scorer: mathScorer(),
    backendFor: () => be.b,
    taskConcurrency: 1,
    retry: { maxAttempts: 1 },
    onResult: (r, rec) => {
      results.push(r);
      records.push(rec);
    },
    onPartial: (key, rec) => void (rec ? partials.set(key, rec) : partials.delete(key)),
    onProgress: (p) => progress.push(p),
    ...over,
  });
  return { run, done: run.run(), results, records, progress, partials };
}

/** The calls made per (question, step), e.g. "0:1" for question 0's check. */
const made = (b: { calls: ChatRequest[] }) => b.calls.map((r) => `${questionOf(r)}:${stepOf(r)}`);

describe("evaluation runner: pause keeps what was paid for", () => {
  it("pause aborts a run mid-chain at once; resume continues it without repeating its first step", async () => {
    const be = backend();
    const s = start(be);
    await until(() => made(be.b).includes("0:1"));
    s.run.pause();
    await until(() => s.progress.at(-1)!.running === 0);
    expect(s.results).toHaveLength(0);
    expect(s.partials.has(Q0)).toBe(true);
    // The first step's call was paid for: it counts in the spend while paused.
    expect(s.progress.at(-1)!.cost).toBeCloseTo(0.015, 12);
    be.open();
    s.run.resume();
    expect((await s.done).status).toBe("finished");
    // q0's solve step ran once; its aborted check ran again (it never finished), then the rest.
    expect(made(be.b)).toEqual(["0:0", "0:1", "0:1", "0:2", "1:0", "1:1", "1:2"]);
    expect(s.results.map((r) => r.item)).toEqual(["q0", "q1"]);
    // The item's result is the whole item: three calls, the kept one included.
    expect(s.results[0]).toMatchObject({ calls: 3, tokens: 45, correct: true });
    expect(s.results[0]!.cost).toBeCloseTo(0.045, 12);
    expect((await s.done).cost).toBeCloseTo(0.09, 12);
    // The record shows all three steps done, the first kept from the partial.
    const steps = s.records[0]!.rounds[0]!.steps;
    expect(steps.map((st) => st.status)).toEqual(["done", "done", "done"]);
    expect(s.records[0]!.kept).toEqual([{ parent: [], round: 0, step: 0 }]);
    expect(s.partials.size).toBe(0);
  });

  it("a partial kept by one session (a pause, then a reload) is continued by the next", async () => {
    const be = backend();
    const first = start(be);
    await until(() => made(be.b).includes("0:1"));
    first.run.pause();
    first.run.cancel();
    expect(await first.done).toMatchObject({ status: "cancelled", done: 0 });
    expect([...first.partials.keys()]).toEqual([Q0]);

    const be2 = backend();
    be2.open();
    const second = start(be2, { partials: first.partials });
    // The stored partial's spend counts from the start (against the cap, in the progress).
    expect(second.progress[0]!.cost).toBeCloseTo(0.015, 12);
    const outcome = await second.done;
    expect(outcome).toMatchObject({ status: "finished", done: 2 });
    // Only the unfinished steps of q0 are called; q1 whole.
    expect(made(be2.b)).toEqual(["0:1", "0:2", "1:0", "1:1", "1:2"]);
    expect(second.results[0]).toMatchObject({ item: "q0", calls: 3 });
    expect(outcome.cost).toBeCloseTo(0.09, 12);
    expect(second.partials.size).toBe(0);
  });

  it("pausing twice carries the whole item through both partials", async () => {
    const be = backend();
    const s = start(be, { items: items(1) });
    await until(() => made(be.b).includes("0:1"));
    s.run.pause();
    await until(() => s.progress.at(-1)!.running === 0);
    s.run.resume();
    // The check runs again and waits: pause again.
    await until(() => made(be.b).filter((m) => m === "0:1").length === 2);
    s.run.pause();
    await until(() => s.progress.at(-1)!.running === 0);
    be.open();
    s.run.resume();
    await s.done;
    expect(made(be.b)).toEqual(["0:0", "0:1", "0:1", "0:1", "0:2"]);
    expect(s.results[0]).toMatchObject({ calls: 3, tokens: 45 });
  });

  it("a stored partial of a key that already has a result is ignored (neither spent nor run)", async () => {
    const be = backend();
    be.open();
    const whole = start(be, { items: items(1) });
    await whole.done;
    const stale = new Map([[Q0, whole.records[0]!]]);
    const be2 = backend();
    const again = start(be2, { items: items(1), previous: whole.results, partials: stale });
    expect(await again.done).toMatchObject({ status: "finished", done: 1 });
    expect(be2.b.calls).toHaveLength(0);
    expect(again.progress[0]!.cost).toBeCloseTo(0.045, 12);
  });
});

describe("evaluation runner: a pause is over only when its partials are stored", () => {
  it("counts a cut-short run as running until onPartial has finished storing it", async () => {
    const be = backend();
    let store = () => undefined as void;
    const stored = new Promise<void>((resolve) => (store = resolve));
    const s = start(be, { items: items(1), onPartial: () => stored });
    await until(() => made(be.b).includes("0:1"));
    s.run.pause();
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    // The partial is still being stored: a reload now would lose it, so it is not over.
    expect(s.progress.at(-1)!.running).toBe(1);
    store();
    await until(() => s.progress.at(-1)!.running === 0);
    s.run.cancel();
    await s.done;
  });
});

describe("evaluation runner: a paused Conductor item keeps its plan", () => {
  const conductor = conductorConfig();
  const PLAN = 'model_id = [0, 0]\nsubtasks = ["Solve", "Check it"]\naccess_list = [[], ["all"]]';
  const KEEP = "model_id = []\nsubtasks = []\naccess_list = []";

  it.each([0, 1])(
    "continues after a pause without asking the Conductor again (%i refinement rounds)",
    async (rounds) => {
      let open = () => undefined as void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const workers = createFakeBackend((req) => ({
        text: "Answer: 7",
        usage: { promptTokens: 10, completionTokens: 5, estimated: false },
        ...(req.messages.some((m) => m.content.includes("Check it")) ? { gate } : {}),
      }));
      // The first call plans; a refinement round's call accepts the answer.
      const planner = createFakeBackend((_req, n) => ({
        text: n === 0 ? PLAN : KEEP,
        usage: { promptTokens: 50, completionTokens: 20, estimated: false },
      }));
      const s = start(
        { b: workers, open, close: () => gate },
        {
          evaluation: evaluation(POOL, {
            strategies: [{ kind: "conductor", rounds }],
            conductor,
            concurrency: 1,
          }),
          items: items(1),
          conductorBackend: planner,
        },
      );
      await until(() => workers.calls.length === 2);
      s.run.pause();
      await until(() => s.progress.at(-1)!.running === 0);
      expect(s.partials.size).toBe(1);
      open();
      s.run.resume();
      expect((await s.done).status).toBe("finished");
      // One plan (and, with a refinement round, one call that accepts); Solve once, Check twice
      // (its first call was cut).
      expect(planner.calls).toHaveLength(1 + rounds);
      expect(workers.calls).toHaveLength(3);
      expect(s.results[0]).toMatchObject({ correct: true, calls: 3 + rounds });
      expect(s.records[0]!.kept).toContainEqual({ parent: [], round: 0, step: null });
    },
  );
});
