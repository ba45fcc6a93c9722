// A continued evaluation item (a pause cut its run short) must add up to the same item as the run
// that was never interrupted: every Conductor call (first plan and refinement plans) and every
// step counted once, in the item's totals and in this session's spend.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import { recordOf } from "../run/record.ts";
import { totalsOf } from "../run/totals.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import type { ItemRunContext } from "./item-run.ts";
import { continueItemRun, itemRunEvents } from "./item-run.ts";
import { EvalRun } from "./runner.ts";
import type { EvalProgress } from "./runner.ts";
import {
  collect,
  conductorConfig,
  evaluation,
  items,
  until,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { EvalResult } from "./schema.ts";
import { mathScorer } from "./scorers/math.ts";
import type { Strategy } from "./strategy.ts";

const conductor = conductorConfig({ input: 2000, output: 4000 });
const pool = [
  worker("a", { input: 1000, output: 1000 }),
  worker("b", { input: 3000, output: 1000 }),
];
const FIRST = 'model_id = [0, 1]\nsubtasks = ["Solve", "Check it"]\naccess_list = [[], ["all"]]';
const SECOND = 'model_id = [1]\nsubtasks = ["Verify the answer"]\naccess_list = [["all"]]';
const KEEP = "model_id = []\nsubtasks = []\naccess_list = []";
const text = (r: ChatRequest) => r.messages.map((m) => m.content).join("\n");

/** Where the first run is cut short: a worker step or a Conductor call (by its number). */
type Cut = { step: string } | { plan: number } | null;

/**
 * Backends for a Conductor item of two refinement rounds: the Conductor plans FIRST, refines
 * with SECOND, then accepts; every call reports its own usage (plans differ per round). The call
 * at `cut` aborts the run when it starts (a pause), as the evaluation runner's pause does.
 */
function setup(cut: Cut) {
  const abort = new AbortController();
  const hold = new Promise<void>(() => undefined);
  const stopHere = (): Pick<FakeReply, "gate"> => {
    abort.abort();
    return { gate: hold };
  };
  const workers = createFakeBackend((req) => ({
    text: "Answer: 7",
    usage: { promptTokens: 10 + (text(req).length % 7), completionTokens: 5, estimated: false },
    ...(cut && "step" in cut && text(req).includes(cut.step) && !abort.signal.aborted
      ? stopHere()
      : {}),
  }));
  // The round a Conductor request plans: its conversation grows by two messages a round (its
  // own lists, then the answer), so a plan asked again answers as it did the first time.
  let first: number | undefined;
  const planner = createFakeBackend((req, n) => {
    first ??= req.messages.length;
    const round = Math.min((req.messages.length - first) / 2, 2);
    return {
      text: [FIRST, SECOND, KEEP][round],
      usage: { promptTokens: 100 * (round + 1), completionTokens: 20 + round, estimated: false },
      ...(cut && "plan" in cut && cut.plan === n ? stopHere() : {}),
    };
  });
  return { abort, workers, planner };
}

function context(
  b: ReturnType<typeof setup>,
  strategy: Strategy,
  signal: AbortSignal,
): ItemRunContext {
  let t = 0;
  return {
    evaluation: evaluation(pool, { strategies: [strategy], conductor }),
    strategy,
    question: "What is 3 + 4?",
    runId: "item-1",
    backendFor: () => b.workers,
    conductorBackend: b.planner,
    signal,
    retry: { maxAttempts: 1 },
    now: () => ++t,
  };
}

async function drain(g: AsyncGenerator<RunEvent, unknown>): Promise<RunRecord> {
  const events: RunEvent[] = [];
  for await (const e of g) events.push(e);
  return recordOf(events);
}

/** The whole item's totals: everything its record holds, kept parts included. */
const whole = (r: RunRecord) => totalsOf({ rounds: r.rounds, kept: [] });

const TWO_ROUNDS: Strategy = { kind: "conductor", rounds: 2 };

describe("a continued Conductor item counts a later round's plan like an uninterrupted one", () => {
  it.each<[string, Cut]>([
    ["a step of the first round", { step: "Check it" }],
    ["the first refinement plan", { plan: 1 }],
    ["a step of the refinement round", { step: "Verify the answer" }],
    ["the last refinement plan", { plan: 2 }],
  ])("cut at %s", async (_name, cut) => {
    const plain = setup(null);
    const uninterrupted = await drain(
      itemRunEvents(context(plain, TWO_ROUNDS, new AbortController().signal)),
    );
    expect(uninterrupted).toMatchObject({ status: "done", endReason: "accepted" });

    const b = setup(cut);
    const partial = await drain(itemRunEvents(context(b, TWO_ROUNDS, b.abort.signal)));
    expect(partial.status).toBe("cancelled");
    const continued = await drain(
      continueItemRun(context(b, TWO_ROUNDS, new AbortController().signal), partial),
    );
    expect(continued).toMatchObject({ status: "done", endReason: "accepted", kind: "resumed" });
    expect(continued.answer).toBe(uninterrupted.answer);
    // The item as a whole: the same calls, tokens and cost as the run never cut short.
    expect(whole(continued)).toEqual(uninterrupted.totals);
    // The spend: what the partial paid plus what the continuation paid is the whole item, so
    // no Conductor call is left out (or counted twice).
    const spent = partial.totals.cost + continued.totals.cost;
    expect(spent).toBeCloseTo(uninterrupted.totals.cost, 12);
    // A plan asked again is the continuation's own call, not a part kept from the partial.
    if (cut && "plan" in cut)
      expect(continued.kept).not.toContainEqual({ parent: [], round: cut.plan, step: null });
    // What the continuation asks is what the uninterrupted run asked: the Conductor's conversation
    // and each worker's prompt (the round before included) carry on as if never cut.
    for (const req of b.planner.calls) expect(plain.planner.calls).toContainEqual(req);
    for (const req of b.workers.calls) expect(plain.workers.calls).toContainEqual(req);
    // Calls made in all: each Conductor plan once, plus the cut call's retry.
    expect(b.planner.calls).toHaveLength(3 + (cut && "plan" in cut ? 1 : 0));
  });
});

describe("an evaluation paused while the Conductor refines", () => {
  const ONE_ROUND = evaluation(pool, {
    strategies: [{ kind: "conductor", rounds: 1 }],
    conductor,
    concurrency: 1,
  });

  /** A Conductor that plans FIRST, then refines with one step; its refinement waits on `gate`. */
  const planner = (gate?: Promise<void>) =>
    createFakeBackend((_req, n) => ({
      text: n === 0 ? FIRST : 'model_id = [0]\nsubtasks = ["Verify"]\naccess_list = [["all"]]',
      usage: { promptTokens: n === 0 ? 100 : 200, completionTokens: 20, estimated: false },
      ...(n > 0 && gate ? { gate } : {}),
    }));

  it("spends, and reports for the item, what the uninterrupted evaluation does", async () => {
    const reference = await collect({
      evaluation: ONE_ROUND,
      items: items(1),
      backendFor: () => setup(null).workers,
      conductorBackend: planner(),
    });
    expect(reference.results[0]).toMatchObject({ correct: true, calls: 5 });

    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const paused = planner(gate);
    const workers = setup(null).workers;
    const results: EvalResult[] = [];
    const progress: EvalProgress[] = [];
    const run = new EvalRun({
      evaluation: ONE_ROUND,
      items: items(1),
      scorer: mathScorer(),
      backendFor: () => workers,
      conductorBackend: paused,
      retry: { maxAttempts: 1 },
      onResult: (r) => void results.push(r),
      onProgress: (p) => progress.push(p),
    });
    const done = run.run();
    // Pause while the refinement plan is being asked.
    await until(() => paused.calls.length === 2);
    run.pause();
    await until(() => progress.at(-1)?.running === 0);
    open();
    run.resume();
    const outcome = await done;
    expect(outcome.status).toBe("finished");
    // The refinement plan was asked twice (its first call was cut), paid for once.
    expect(paused.calls).toHaveLength(3);
    const expected = reference.results[0]!;
    expect(results[0]).toMatchObject({ calls: expected.calls, tokens: expected.tokens });
    expect(results[0]!.cost).toBeCloseTo(expected.cost, 12);
    expect(outcome.cost).toBeCloseTo(reference.outcome.cost, 12);
    expect(progress.at(-1)!.cost).toBeCloseTo(reference.outcome.cost, 12);
  });
});

describe("where a continued item picks up", () => {
  const WORKFLOW: Strategy = {
    kind: "workflow",
    steps: [
      { worker: "a", subtask: "First part", access: [] },
      { worker: "b", subtask: "Second part", access: "all" },
    ],
  };

  /** Runs `strategy` until `cut`, then continues it with `over` applied to the context. */
  async function continueAfter(
    strategy: Strategy,
    cut: Cut,
    over: Partial<ItemRunContext> = {},
  ): Promise<{
    b: ReturnType<typeof setup>;
    partial: RunRecord;
    continued: RunRecord;
    before: number;
  }> {
    const b = setup(cut);
    const partial = await drain(itemRunEvents(context(b, strategy, b.abort.signal)));
    expect(partial.status).toBe("cancelled");
    const before = b.planner.calls.length + b.workers.calls.length;
    const c = { ...context(b, strategy, new AbortController().signal), ...over };
    const continued = await drain(continueItemRun(c, partial));
    return { b, partial, continued, before };
  }

  it("runs afresh when the first plan was cut: nothing was kept", async () => {
    const { b, continued } = await continueAfter(TWO_ROUNDS, { plan: 0 });
    expect(continued).toMatchObject({ kind: "planned", kept: [], status: "done" });
    expect(b.planner.calls).toHaveLength(4);
  });

  it("keeps the first plan when its first step was cut, without asking the Conductor again", async () => {
    const { b, continued } = await continueAfter(
      { kind: "conductor", rounds: 0 },
      { step: "Solve" },
    );
    expect(continued).toMatchObject({ kind: "resumed", id: "item-1", status: "done" });
    expect(continued.kept).toEqual([{ parent: [], round: 0, step: null }]);
    expect(b.planner.calls).toHaveLength(1);
  });

  it("runs a fixed strategy afresh when none of its steps finished", async () => {
    const { continued } = await continueAfter(WORKFLOW, { step: "First part" });
    expect(continued).toMatchObject({ kind: "planned", kept: [], status: "done" });
  });

  it("keeps a fixed strategy's finished steps and runs only the rest, without a Conductor", async () => {
    const { b, continued, before } = await continueAfter(WORKFLOW, { step: "Second part" });
    expect(continued).toMatchObject({ kind: "resumed", status: "done", endReason: "no_rounds" });
    expect(continued.kept).toEqual([{ parent: [], round: 0, step: 0 }]);
    // Only the cut step is called again; the Conductor is never asked.
    expect(b.workers.calls.length + b.planner.calls.length - before).toBe(1);
    expect(b.planner.calls).toHaveLength(0);
  });

  it.each<[string, Partial<ItemRunContext>]>([
    ["no Conductor backend", { conductorBackend: undefined }],
    [
      "an evaluation without a Conductor",
      { evaluation: evaluation(pool, { strategies: [TWO_ROUNDS], conductor: null }) },
    ],
  ])("ends no_conductor, as a fresh run would, with %s", async (_name, over) => {
    const { continued } = await continueAfter(TWO_ROUNDS, { step: "Check it" }, over);
    expect(continued).toMatchObject({ status: "failed", endReason: "no_conductor", kept: [] });
  });

  it("keeps the strategy's step cap on the continued run", async () => {
    const capped: Strategy = { kind: "conductor", rounds: 1, maxSteps: 2 };
    const { continued } = await continueAfter(capped, { step: "Check it" });
    expect(continued).toMatchObject({ kind: "resumed", maxSteps: 2, maxRounds: 1 });
  });
});

describe("a fresh Conductor item", () => {
  it("plans under the strategy's step cap and refines as many rounds as it asks", async () => {
    const b = setup(null);
    const strategy: Strategy = { kind: "conductor", rounds: 1, maxSteps: 2 };
    const record = await drain(itemRunEvents(context(b, strategy, new AbortController().signal)));
    expect(record).toMatchObject({ maxSteps: 2, maxRounds: 1, endReason: "round_cap" });
    // The first plan, then one refinement.
    expect(b.planner.calls).toHaveLength(2);
    expect(b.planner.calls[0]?.messages.map((m) => m.content).join("\n")).toMatch(
      /at most 2 routing steps/,
    );
  });
});

describe("a continued item that a fallback worker answers", () => {
  it("ends after the fallback's answer, as the uninterrupted run does", async () => {
    const strategy: Strategy = { kind: "conductor", rounds: 1 };
    const run = async (cut: boolean) => {
      const abort = new AbortController();
      const workers = createFakeBackend(() =>
        cut && !abort.signal.aborted
          ? (abort.abort(), { gate: new Promise<void>(() => undefined) })
          : { text: "Answer: 7" },
      );
      const planner = createFakeBackend([{ text: "No lists today." }]);
      const b = { abort, workers, planner };
      const c = (signal: AbortSignal) => ({
        ...context(b, strategy, signal),
        fallback: { workerId: "a" },
      });
      const first = await drain(itemRunEvents(c(abort.signal)));
      if (!cut) return { record: first, planner };
      expect(first.status).toBe("cancelled");
      const record = await drain(continueItemRun(c(new AbortController().signal), first));
      return { record, planner };
    };
    const whole = await run(false);
    expect(whole.record.rounds[0]?.fallback?.worker).toBe("a");
    const continued = await run(true);
    expect(continued.record).toMatchObject({
      status: "done",
      endReason: whole.record.endReason,
      answer: "Answer: 7",
    });
    // The Conductor that could not plan is not asked to refine the fallback's answer.
    expect(continued.planner.calls).toHaveLength(whole.planner.calls.length);
    expect(continued.record.rounds).toHaveLength(1);
    expect(continued.record.rounds[0]).toMatchObject({ fallback: { worker: "a" }, lists: null });
  });
});
