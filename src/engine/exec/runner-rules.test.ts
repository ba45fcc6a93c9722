// The runner's own rules, each pinned: when steps given to the Conductor nest, how deep, when
// refinement rounds follow, which earlier round a given round sees, when a failed plan falls
// back, and how a run without a Conductor or cancelled before its plan ends.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import { recordOf } from "../run/record.ts";
import type { EventOf, RunEvent } from "../schema/events.ts";
import type { RunnerOptions } from "./runner.ts";
import { runRun } from "./runner.ts";
import { questionRun, selfPool } from "../../test-support/engine/exec/exec-runner.ts";

const pool = selfPool();
const lists = (ids: number[], access = "[]") =>
  `model_id = [${ids.join(", ")}]\nsubtasks = [${ids.map((_, i) => `"Task ${i}"`).join(", ")}]\naccess_list = [${ids.map(() => access).join(", ")}]`;
const ONE = lists([0]);
const SELF = lists([2]);
const ACCEPT = "model_id = []\nsubtasks = []\naccess_list = []";

function setup(over: Partial<RunnerOptions>, texts: string[]) {
  const seen: ChatRequest[] = [];
  const workers = createFakeBackend((r) => {
    seen.push(r);
    return { text: `worker answer ${seen.length}` };
  });
  const conductorBackend = createFakeBackend(texts.map((text) => ({ text })));
  const o = questionRun(pool, { conductorBackend, workers }, over, { from: 0, by: 1 });
  return { o, seen, conductorBackend };
}

async function run(o: RunnerOptions) {
  const events: RunEvent[] = [];
  for await (const e of runRun(o)) events.push(e);
  const finish = events.at(-1) as EventOf<"run_finish">;
  expect(finish.type).toBe("run_finish");
  return { events, finish, record: recordOf(events) };
}

describe("the runner's rules", () => {
  it("nests a step given to the Conductor unless self-selection is off, then calls it plainly", async () => {
    const nested = setup({}, [SELF, ONE]);
    const a = await run(nested.o);
    expect(a.record.rounds[0]?.steps[0]?.nested?.rounds).toHaveLength(1);
    const plain = setup({ selfSelect: false }, [SELF, "The Conductor answers itself."]);
    const b = await run(plain.o);
    expect(b.record.rounds[0]?.steps[0]?.nested).toBeNull();
    expect(b.finish.answer).toBe("The Conductor answers itself.");
  });

  it("nests one level by default: a Conductor step inside a nested plan is a plain call", async () => {
    const { o, conductorBackend } = setup({}, [SELF, SELF, "Plain at depth two."]);
    const { record, finish } = await run(o);
    const inner = record.rounds[0]?.steps[0]?.nested?.rounds[0]?.steps[0];
    expect(inner?.nested).toBeNull();
    expect(inner?.output).toBe("Plain at depth two.");
    expect(finish).toMatchObject({ status: "done", answer: "Plain at depth two." });
    expect(conductorBackend.calls).toHaveLength(3);
  });

  it("runs a Conductor step plainly where there is no Conductor backend to nest with", async () => {
    const { o, seen } = setup(
      {
        conductorBackend: undefined,
        start: { from: "round", round: 0, steps: [{ worker: "w2", subtask: "Self", access: [] }] },
      },
      [],
    );
    const { finish } = await run(o);
    expect(finish).toMatchObject({ status: "done", reason: "no_rounds" });
    expect(seen).toHaveLength(1);
  });

  it("refines by default where a Conductor is given, and not when told not to or without one", async () => {
    const refined = setup({ maxRounds: 1 }, [ONE, ACCEPT]);
    expect((await run(refined.o)).finish.reason).toBe("accepted");
    const told = setup({ maxRounds: 1, refine: false }, [ONE, ACCEPT]);
    expect((await run(told.o)).finish.reason).toBe("no_rounds");
    expect(told.conductorBackend.calls).toHaveLength(1);
    const steps = [{ worker: "w0", subtask: "Solve", access: [] as number[] }];
    const without = setup(
      { maxRounds: 1, conductor: undefined, start: { from: "round", round: 0, steps } },
      [ACCEPT],
    );
    expect((await run(without.o)).finish.reason).toBe("no_rounds");
    expect(without.conductorBackend.calls).toHaveLength(0);
  });

  it("shows a given round the previous round it was given", async () => {
    const steps = [{ worker: "w0", subtask: "Improve it", access: "all" as const }];
    const previousRound = [{ worker: "w1", subtask: "First try", output: "391 = 17 x 23" }];
    const { o, seen } = setup(
      { refine: false, start: { from: "round", round: 1, steps, previousRound } },
      [],
    );
    await run(o);
    expect(seen[0]?.messages[0]?.content).toContain("391 = 17 x 23");
    expect(seen[0]?.messages[0]?.content).toContain("Previous round Agent 1 response");
  });

  it("falls back to a worker only for round 0, the Plan button's plan-only run included", async () => {
    const fallback = { workerId: "w0" };
    // Plan alone: with no plan to show, the named worker answers instead (its one step runs).
    const planOnly = setup({ fallback, start: { from: "plan", planOnly: true } }, ["nonsense"]);
    const p = await run(planOnly.o);
    expect(p.finish).toMatchObject({ status: "done", answer: "worker answer 1" });
    expect(p.record.rounds[0]?.fallback?.worker).toBe("w0");
    expect(planOnly.seen).toHaveLength(1);
    // Without a fallback, Plan alone shows the failure and runs nothing.
    const bare = setup({ start: { from: "plan", planOnly: true } }, ["nonsense"]);
    const b = await run(bare.o);
    expect(b.finish).toMatchObject({ status: "failed", reason: "plan_error" });
    expect(bare.seen).toHaveLength(0);
    const executes = setup({ fallback }, ["nonsense"]);
    const e = await run(executes.o);
    expect(e.finish).toMatchObject({ status: "done", answer: "worker answer 1" });
    expect(e.record.rounds[0]?.fallback?.worker).toBe("w0");
    // A refinement round's plan that fails does not fall back: round 1's answer stands.
    const later = setup({ fallback, maxRounds: 1 }, [ONE, "nonsense"]);
    const l = await run(later.o);
    expect(l.finish).toMatchObject({ reason: "plan_error", answer: "worker answer 1" });
    expect(later.seen).toHaveLength(1);
  });

  it("ends without a Conductor backend as no_conductor, and cancelled before the plan as cancelled", async () => {
    const none = setup({ conductorBackend: undefined }, []);
    const n = await run(none.o);
    expect(n.events.map((e) => e.type)).toEqual(["run_start", "run_finish"]);
    expect(n.finish).toMatchObject({ status: "failed", reason: "no_conductor", answer: null });
    expect(n.finish.at).toBeGreaterThan(0);
    const controller = new AbortController();
    controller.abort();
    const cancelled = setup({ signal: controller.signal }, [ONE]);
    const c = await run(cancelled.o);
    expect(c.finish).toMatchObject({ status: "cancelled", reason: "cancelled", answer: null });
    expect(c.finish.at).toBeGreaterThan(0);
  });

  it("ends a refused start at once as a setup error with its reason, asking no one", async () => {
    const message = "The strategy names a worker the pool does not have.";
    const { o, seen, conductorBackend } = setup({ start: { from: "refused", message } }, [ONE]);
    const events: RunEvent[] = [];
    const gen = runRun(o);
    let next = await gen.next();
    for (; !next.done; next = await gen.next()) events.push(next.value);
    expect(events.map((e) => e.type)).toEqual(["run_start", "run_finish"]);
    const ended = events[1] as EventOf<"run_finish">;
    const finish = { type: "run_finish", status: "failed", reason: "setup_error" };
    expect(ended).toEqual({ ...finish, at: ended.at, answer: null, message });
    expect(ended.at).toBeGreaterThan((events[0] as EventOf<"run_start">).at);
    // What the caller gets back: the same ending, and no round ran.
    expect(next.value).toEqual({ finish: events[1], lastRound: null });
    expect(seen).toHaveLength(0);
    expect(conductorBackend.calls).toHaveLength(0);
  });

  it("ends a plan-only run at its plan, with no answer, at the time it ended", async () => {
    const { o, seen } = setup({ start: { from: "plan", planOnly: true } }, [ONE]);
    const { events, finish, record } = await run(o);
    expect(finish).toEqual({
      type: "run_finish",
      at: (events.at(-2) as EventOf<"plan_finish">).at + 1,
      status: "planned",
      reason: "planned",
      answer: null,
    });
    expect(record.rounds[0]?.plan?.raw).toBe(ONE);
    expect(seen).toHaveLength(0);
  });

  it("does not refine a given fallback round: the Conductor that would refine it could not plan", async () => {
    const steps = [{ worker: "w0", subtask: "Answer it", access: [] as number[] }];
    const fallback = {
      worker: "w0",
      reason: { code: "parse_error", message: "The plan did not parse." },
    };
    const { o, conductorBackend } = setup(
      { maxRounds: 2, start: { from: "round", round: 0, steps, fallback } },
      [ONE, ACCEPT],
    );
    const { record, finish } = await run(o);
    expect(conductorBackend.calls).toHaveLength(0);
    expect(record.rounds).toHaveLength(1);
    expect(record.rounds[0]?.fallback).toMatchObject({ worker: "w0" });
    expect(finish).toMatchObject({ status: "done", answer: "worker answer 1" });
  });

  it("refuses a start it does not know as the caller's bug, rather than planning", async () => {
    // Only an untyped caller can get here (RunStart names every start): a missing `from` is no plan.
    for (const start of [{}, { from: "replan" }]) {
      const { o, conductorBackend } = setup({ start: start as unknown as RunnerOptions["start"] }, [
        ONE,
      ]);
      await expect(run(o)).rejects.toThrow(`runRun: unknown start ${JSON.stringify(start)}`);
      expect(conductorBackend.calls).toHaveLength(0);
    }
  });

  it("keeps the steps it was told to keep, in order, whatever order the map gave", async () => {
    const steps = [0, 1, 2].map((i) => ({
      worker: "w0",
      subtask: `S${i}`,
      access: [] as number[],
    }));
    const keep = new Map([
      [2, "kept two"],
      [0, "kept zero"],
    ]);
    const { o, seen } = setup(
      { refine: false, start: { from: "round", round: 0, steps, keep } },
      [],
    );
    const { events } = await run(o);
    expect(events.find((e) => e.type === "round_start")).toMatchObject({ keep: [0, 2] });
    expect(seen).toHaveLength(1);
  });
});
