import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { interrupted, resumePoint, seedFrom, stepsAt } from "../run/continue.ts";
import { recordOf } from "../run/record.ts";
import { totalsOf } from "../run/totals.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Step } from "../schema/workflow.ts";
import type { RunnerOptions } from "./runner.ts";
import { runRun } from "./runner.ts";
import {
  conductor7b,
  runnerOptions,
  selfPool,
} from "../../test-support/engine/exec/exec-runner.ts";
import { subtaskOf } from "../../test-support/engine/exec/subtask.ts";

const question = "Is 391 prime?";
const pool = selfPool({ input: 1, output: 2 });
const conductor = conductor7b;
const PLAN = `Two tries, then a check.
model_id = [0, 1, 0]
subtasks = ["Try A", "Try B", "Check both"]
access_list = [[], [], ["all"]]`;
const NESTED = `Nested: one step.
model_id = [1]
subtasks = ["Inner work"]
access_list = [[]]`;
const SELF_PLAN = `Delegate the check.
model_id = [0, 2]
subtasks = ["Try A", "Plan the check"]
access_list = [[], ["all"]]`;
const ACCEPT = "Fine.\nmodel_id = []\nsubtasks = []\naccess_list = []";

function workers() {
  const calls: string[] = [];
  const backend = createFakeBackend((r) => {
    calls.push(subtaskOf(r));
    return { text: `answer to ${subtaskOf(r)} #${calls.length}` };
  });
  return { backend, calls };
}

async function drain(gen: AsyncGenerator<RunEvent, unknown>, events: RunEvent[] = []) {
  for (;;) {
    const n = await gen.next();
    if (n.done) return events;
    events.push(n.value);
  }
}

/** The invariant of the one runner: exactly one run_finish, and it is the last event. */
function expectOneEnd(events: RunEvent[]) {
  expect(events.filter((e) => e.type === "run_finish")).toHaveLength(1);
  expect(events.at(-1)?.type).toBe("run_finish");
}

function options(over: Partial<RunnerOptions>, conductorText: string | string[] = PLAN) {
  const w = workers();
  const texts = Array.isArray(conductorText) ? conductorText : [conductorText];
  const conductorBackend = createFakeBackend(texts.map((text) => ({ text })));
  const o = runnerOptions({
    question,
    pool,
    conductor,
    conductorBackend,
    backendFor: () => w.backend,
    ...over,
  });
  return { o, w, conductorBackend };
}

async function runToRecord(o: RunnerOptions, base?: RunRecord): Promise<RunRecord> {
  const events = await drain(runRun(o));
  expectOneEnd(events);
  return recordOf(events, base);
}

describe("runRun: the one runner", () => {
  it("plans only: ends as a planned run with planning time and no execution time", async () => {
    const { o, w } = options({ start: { from: "plan", planOnly: true }, run: { id: "p1" } });
    const r = await runToRecord(o);
    expect(r).toMatchObject({ id: "p1", kind: "planned", status: "planned", executionMs: null });
    expect(r.planningMs).toBeGreaterThan(0);
    expect(r.rounds[0]?.lists?.subtasks).toEqual(["Try A", "Try B", "Check both"]);
    expect(w.calls).toEqual([]);
    expect(r.totals).toEqual(totalsOf(r));
    expect(r.totals.calls).toBe(1);
  });

  it("runs a planned run in place (append): planning and execution time apart", async () => {
    const planned = await runToRecord(options({ start: { from: "plan", planOnly: true } }).o);
    const steps = stepsAt(planned, { parent: [], round: 0 });
    const { o, w } = options({
      append: true,
      base: planned,
      start: { from: "round", round: 0, steps, raw: planned.rounds[0]!.plan!.raw },
    });
    const events = await drain(runRun(o));
    expectOneEnd(events);
    expect(events.some((e) => e.type === "run_start")).toBe(false);
    const r = recordOf(events, planned);
    expect(r.status).toBe("done");
    expect(w.calls).toHaveLength(3);
    expect(r.planningMs).toBe(planned.planningMs);
    expect(r.executionMs).toBeGreaterThan(0);
    expect(r.totals).toEqual(totalsOf(r));
    expect(r.totals.calls).toBe(4);
  });

  it("plans, runs and refines: one end after the accepted round", async () => {
    const { o } = options({ maxRounds: 2 }, [PLAN, ACCEPT]);
    const r = await runToRecord(o);
    expect(r).toMatchObject({ status: "done", endReason: "accepted" });
    expect(r.totals).toEqual(totalsOf(r));
  });

  it("re-runs from a step as a new run that keeps the other outputs and counts only its calls", async () => {
    const first = await runToRecord(options({ run: { id: "a" } }).o);
    const keep = new Map([[0, first.rounds[0]!.steps[0]!.output]]);
    const steps = stepsAt(first, { parent: [], round: 0 });
    const { o, w } = options({
      run: { id: "b", kind: "rerun", parentId: "a" },
      base: first,
      seed: seedFrom(first, { parent: [], round: 0 }, keep.keys()),
      refine: false,
      start: { from: "round", round: 0, steps, keep },
    });
    const r = await runToRecord(o);
    expect(r).toMatchObject({ id: "b", kind: "rerun", parentId: "a", status: "done" });
    expect(w.calls).toEqual(["Try B", "Check both"]);
    expect(r.rounds[0]!.steps[0]!.output).toBe(first.rounds[0]!.steps[0]!.output);
    // Its own two calls only: the kept step and the parent's plan belong to the parent.
    expect(r.totals.calls).toBe(2);
    expect(r.totals).toEqual(totalsOf(r));
    expect(r.kept).toEqual([
      { parent: [], round: 0, step: null },
      { parent: [], round: 0, step: 0 },
    ]);
  });

  it("resumes an interrupted run: only the unfinished steps run", async () => {
    const full = await runToRecord(options({ run: { id: "a" } }).o);
    // As if the page went away while step 2 streamed and step 3 waited.
    const cut: RunRecord = {
      ...full,
      status: "running",
      answer: null,
      rounds: full.rounds.map((round) => ({
        ...round,
        steps: round.steps.map((s, i) =>
          i === 0 ? s : { ...s, status: i === 1 ? "running" : "queued", output: "part" },
        ),
      })),
    };
    const stopped = interrupted(cut);
    expect(stopped.status).toBe("interrupted");
    expect(stopped.rounds[0]!.steps.map((s) => s.status)).toEqual([
      "done",
      "interrupted",
      "interrupted",
    ]);
    expect(stopped.rounds[0]!.steps[1]!.output).toBe("part");
    const point = resumePoint(stopped);
    expect(point).toMatchObject({ at: "round", round: 0 });
    if (point.at !== "round") return;
    const { o, w, conductorBackend } = options({
      run: { id: "r", kind: "resumed", parentId: "a" },
      base: stopped,
      seed: seedFrom(stopped, { parent: [], round: 0 }, point.keep.keys()),
      start: {
        from: "round",
        round: 0,
        steps: stepsAt(stopped, { parent: [], round: 0 }),
        keep: point.keep,
      },
    });
    const r = await runToRecord(o);
    expect(w.calls).toEqual(["Try B", "Check both"]);
    expect(conductorBackend.calls).toHaveLength(0);
    expect(r).toMatchObject({ kind: "resumed", status: "done" });
    expect(r.totals.calls).toBe(2);
  });

  it("resumes a run interrupted while planning by planning again", async () => {
    const planning = interrupted({
      ...(await runToRecord(options({ start: { from: "plan", planOnly: true } }).o)),
      status: "planning",
      rounds: [],
    });
    expect(resumePoint(planning)).toEqual({ at: "plan", round: 0 });
  });

  it("re-runs an edited later round with what it saw, as a new run without the rounds after it", async () => {
    const first = await runToRecord(options({ maxRounds: 1 }, [PLAN, PLAN]).o);
    expect(first.rounds).toHaveLength(2);
    const at = { parent: [], round: 1 };
    const steps = stepsAt(first, at).map((s, i) => (i === 0 ? { ...s, subtask: "Edited" } : s));
    const { o, w } = options({
      run: { kind: "edited", parentId: first.id },
      base: first,
      seed: seedFrom(first, at, []),
      refine: false,
      start: { from: "round", round: 1, steps },
    });
    const r = await runToRecord(o);
    expect(r.rounds).toHaveLength(2);
    expect(w.calls).toEqual(["Edited", "Try B", "Check both"]);
    expect(r.answer).toBe(r.rounds[1]!.steps[2]!.output);
    expect(r.totals.calls).toBe(3);
  });

  it("re-runs a nested workflow in place: its step gets the new answer, one end", async () => {
    const first = await runToRecord(options({ maxDepth: 1 }, [SELF_PLAN, NESTED]).o);
    const owner = first.rounds[0]!.steps[1]!;
    expect(owner.nested?.rounds[0]?.steps).toHaveLength(1);
    const focus = { parent: [{ round: 0, step: 1 }], round: 0 };
    const steps = stepsAt(first, focus).map((s) => ({ ...s, subtask: "Inner again" }));
    const { o, w } = options({
      run: { kind: "edited", parentId: first.id },
      base: first,
      seed: seedFrom(first, focus, []),
      start: { from: "nested", focus, steps },
    });
    const r = await runToRecord(o);
    expect(w.calls).toEqual(["Inner again"]);
    expect(r.rounds[0]!.steps[1]!.output).toMatch(/^answer to Inner again/);
    expect(r.answer).toBe(r.rounds[0]!.steps[1]!.output);
    expect(r.totals.calls).toBe(1);
    expect(r.totals).toEqual(totalsOf(r));
  });

  it("ends once when cancelled while planning", async () => {
    const ctl = new AbortController();
    ctl.abort();
    const { o } = options({ signal: ctl.signal });
    const r = await runToRecord(o);
    expect(r).toMatchObject({ status: "cancelled", endReason: "cancelled" });
  });

  it("ends once when cancelled mid-round: the unfinished steps cancel and nothing more is called", async () => {
    const ctl = new AbortController();
    let open: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (open = resolve));
    const calls: string[] = [];
    const backend = createFakeBackend((r) => {
      calls.push(subtaskOf(r));
      return subtaskOf(r) === "Try A" ? { text: "slow", gate: slow } : { text: "B done" };
    });
    const steps: Step[] = [
      { worker: "w0", subtask: "Try A", access: [] },
      { worker: "w1", subtask: "Try B", access: [] },
      { worker: "w0", subtask: "Check both", access: "all" },
    ];
    const { o } = options({
      backendFor: () => backend,
      signal: ctl.signal,
      start: { from: "round", round: 0, steps },
    });
    const events: RunEvent[] = [];
    for await (const e of runRun(o)) {
      events.push(e);
      if (e.type === "step_finish" && e.step === 1) ctl.abort();
    }
    open();
    expectOneEnd(events);
    const cancelled = events.flatMap((e) => (e.type === "step_cancel" ? [e.step] : []));
    expect(cancelled.sort()).toEqual([0, 2]);
    expect(calls).toEqual(["Try A", "Try B"]);
    expect(events.at(-1)).toMatchObject({ status: "cancelled", reason: "cancelled", answer: null });
  });

  it("ends once when a step fails", async () => {
    const { o } = options({
      backendFor: () => createFakeBackend([{ text: "", error: undefined, usage: null }]),
      maxCalls: 2,
    });
    const r = await runToRecord(o);
    expect(r).toMatchObject({ status: "failed", endReason: "budget" });
  });
});
