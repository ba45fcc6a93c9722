import { describe, expect, it } from "vitest";
import { stepsOf } from "../graph/document.ts";
import { makeDoc } from "../../test-support/engine/graph/graph-docs.ts";
import type { RoundRecord, RunRecord, StepStatus } from "../schema/record.ts";
import { WorkerSchema } from "../schema/worker.ts";
import { TOP } from "./focus.ts";
import { emptyRecord, listsOf, stepRecord } from "./record.ts";
import type { RunRequest, ShownResult } from "./rerun.ts";
import {
  continuedRun,
  keptOutputs,
  planResume,
  planRun,
  refines,
  rerunIndices,
  resumeNeeds,
  runActionOf,
  stepsThatRun,
} from "./rerun.ts";

const pool = ["w0", "w1", "w2", "w3"].map((id) => WorkerSchema.parse({ id, name: id }));
/** a; b sees a; c sees all before it; d sees nothing. */
const doc = makeDoc([[], [0], "all", []]);
const done = (output: string): ShownResult => ({ status: "done", output });
const failed: ShownResult = { status: "failed", output: "" };

const PLAN = {
  messages: [],
  raw: "model_id = [0, 1, 2, 3]",
  startedAt: 1,
  finishedAt: 2,
  usage: null,
  cost: null,
  error: null,
};

/** A round of the four steps of `doc`, each with the status given (done ones output their id). */
function round(index: number, statuses: StepStatus[], steps = doc.steps): RoundRecord {
  return {
    index,
    plan: index === 0 ? PLAN : null,
    lists: null,
    steps: steps.map((st, i) => ({
      ...stepRecord({ pool }, st, i),
      status: statuses[i] ?? "idle",
      output: statuses[i] === "done" ? `out ${st.id}` : "",
    })),
    answer: null,
    accepted: false,
  };
}

const run = (patch: Partial<RunRecord>): RunRecord => ({
  ...emptyRecord("parent"),
  question: "Why?",
  pool,
  status: "done",
  rounds: [round(0, ["done", "done", "done", "done"])],
  ...patch,
});
/** A planned run: the Conductor's lists for the canvas's steps, no step run yet. */
const plannedRun = (): RunRecord =>
  run({
    status: "planned",
    kind: "planned",
    rounds: [
      {
        ...round(0, [], []),
        lists: listsOf(
          stepsOf(doc),
          pool.map((w) => w.id),
        ),
      },
    ],
  });

const request = (patch: Partial<RunRequest> = {}): RunRequest => ({
  doc,
  results: {},
  focus: TOP,
  parent: null,
  rounds: 0,
  ...patch,
});

describe("which steps a run runs", () => {
  it("names the action: Run, Re-run of a step, Retry of a failed one", () => {
    expect(runActionOf({ a: failed })).toBe("Run");
    expect(runActionOf({ a: done("x") }, "a")).toBe("Re-run");
    expect(runActionOf({ a: failed }, "a")).toBe("Retry");
    expect(runActionOf({}, "a")).toBe("Re-run");
  });

  it("re-runs a step and every step that sees it, directly or not", () => {
    expect([...rerunIndices(doc, "a")].sort()).toEqual([0, 1, 2]);
    expect([...rerunIndices(doc, "b")].sort()).toEqual([1, 2]);
    expect([...rerunIndices(doc, "d")]).toEqual([3]);
    expect(stepsThatRun(doc, "b").map((s) => s.id)).toEqual(["b", "c"]);
  });

  it("runs every step when no step, or a step not in the workflow, is named", () => {
    expect([...rerunIndices(doc)]).toEqual([0, 1, 2, 3]);
    expect([...rerunIndices(doc, "gone")]).toEqual([0, 1, 2, 3]);
  });

  it("keeps the finished outputs of the steps that do not run, and only those", () => {
    const results = { a: done("A"), b: done("B"), c: done("C"), d: failed };
    expect([...keptOutputs(doc, results, "b")]).toEqual([[0, "A"]]);
    expect([...keptOutputs(doc, { a: failed, d: done("D") }, "b")]).toEqual([[3, "D"]]);
    expect(keptOutputs(doc, results).size).toBe(0);
  });
});

describe("the run a new run continues", () => {
  it("is the open run of the same question, never a draft or an empty record", () => {
    const parent = run({});
    expect(continuedRun(parent, "Why?")).toBe(parent);
    expect(continuedRun(parent, "Why not?")).toBeNull();
    expect(continuedRun({ ...parent, status: "draft" }, "Why?")).toBeNull();
    expect(continuedRun({ ...parent, rounds: [] }, "Why?")).toBeNull();
  });
});

describe("planRun", () => {
  it("starts a manual run of round 0 when nothing is continued, with rounds when asked", () => {
    const planned = planRun(request({ rounds: 2 }));
    expect(planned).toMatchObject({
      ok: true,
      plan: { kind: "manual", parentId: null, append: false, refine: true },
    });
    if (!planned.ok) return;
    expect(planned.plan.seed).toBeUndefined();
    expect(planned.plan.base).toBeUndefined();
    expect(planned.plan.start).toMatchObject({ from: "round", round: 0, raw: undefined });
  });

  it("is a rerun of an unchanged workflow, an edited run of a changed one", () => {
    const parent = run({});
    expect(planRun(request({ parent }))).toMatchObject({
      plan: { kind: "rerun", parentId: "parent", base: parent },
    });
    const edited = makeDoc([[], [0], "all"]);
    expect(planRun(request({ parent, doc: edited }))).toMatchObject({
      plan: { kind: "edited", parentId: "parent" },
    });
  });

  it("retries a failed step, re-runs a finished one, and neither refines", () => {
    const parent = run({});
    const retry = planRun(request({ parent, results: { b: failed }, fromStepId: "b", rounds: 2 }));
    expect(retry).toMatchObject({ plan: { kind: "retry", refine: false } });
    const results = { a: done("A"), b: done("B") };
    const rerun = planRun(request({ parent, results, fromStepId: "b" }));
    expect(rerun).toMatchObject({ plan: { kind: "rerun", refine: false } });
    if (!rerun.ok || rerun.plan.start.from !== "round") throw new Error("a round start");
    expect([...(rerun.plan.start.keep ?? [])]).toEqual([[0, "A"]]);
    // The seed keeps a's part and none of the steps that run again.
    expect(rerun.plan.seed?.kept).toContainEqual({ parent: [], round: 0, step: 0 });
    expect(rerun.plan.seed?.kept).not.toContainEqual({ parent: [], round: 0, step: 1 });
  });

  it("carries only the first round over, and the Conductor's text for it", () => {
    const parent = run({ rounds: [round(0, ["done"]), round(1, ["done"])] });
    const planned = planRun(request({ parent, doc: makeDoc([[]]) }));
    if (!planned.ok) throw new Error("planned");
    expect(planned.plan.seed?.rounds.map((r) => r.index)).toEqual([0]);
    expect(planned.plan.start).toMatchObject({ raw: PLAN.raw });
  });

  it("runs the Conductor's unedited plan as the planned run itself", () => {
    const parent = plannedRun();
    expect(planRun(request({ parent, rounds: 1 }))).toMatchObject({
      plan: { kind: "planned", parentId: null, append: true, base: parent, refine: true },
    });
    // A re-run from a step of it, or an edit of it, is a run of its own.
    expect(planRun(request({ parent, fromStepId: "a" }))).toMatchObject({
      plan: { append: false, kind: "rerun", parentId: "parent" },
    });
    expect(planRun(request({ parent, doc: makeDoc([[]]) }))).toMatchObject({
      plan: { append: false, kind: "edited" },
    });
  });

  it("runs an edited later round as an edited run that knows the round before it", () => {
    const parent = run({ rounds: [round(0, ["done", "done", "done", "done"]), round(1, [])] });
    const focus = { parent: [], round: 1 };
    const planned = planRun(request({ parent, focus, rounds: 2 }));
    expect(planned).toMatchObject({
      plan: {
        kind: "edited",
        parentId: "parent",
        refine: false,
        start: { from: "round", round: 1 },
      },
    });
    if (!planned.ok || planned.plan.start.from !== "round") throw new Error("a round start");
    expect(planned.plan.start.previousRound?.map((p) => p.output)).toEqual([
      "out a",
      "out b",
      "out c",
      "out d",
    ]);
    expect(refines({ focus, rounds: 2 })).toBe(false);
  });

  it("runs a nested workflow in place, and refuses one with no run to hold it", () => {
    const focus = { parent: [{ round: 0, step: 2 }], round: 0 };
    expect(planRun(request({ parent: run({}), focus }))).toMatchObject({
      plan: { kind: "edited", start: { from: "nested", focus } },
    });
    expect(planRun(request({ focus }))).toEqual({ ok: false, code: "not_in_record" });
  });
});

describe("resuming an interrupted run", () => {
  it("runs the unfinished steps of the last round again and keeps the finished ones", () => {
    const parent = run({
      status: "interrupted",
      rounds: [round(0, ["done", "interrupted", "queued", "done"])],
    });
    const plan = planResume(parent, true);
    expect(plan).toMatchObject({ planning: false, plansAgain: false, refine: false });
    expect(planResume({ ...parent, maxRounds: 2 }, true).refine).toBe(true);
    expect(planResume({ ...parent, maxRounds: 2 }, false).refine).toBe(false);
    expect(plan.start).toMatchObject({ from: "round", round: 0 });
    if (plan.start.from !== "round") throw new Error("a round start");
    expect([...(plan.start.keep ?? [])]).toEqual([
      [0, "out a"],
      [3, "out d"],
    ]);
    expect(plan.seed?.kept).toContainEqual({ parent: [], round: 0, step: 3 });
    // A refinement after it goes on from what the Conductor wrote, as an uninterrupted run would.
    expect(plan.start.raw).toBe(PLAN.raw);
    const needs = resumeNeeds(parent, false);
    expect(needs).toEqual({ plans: false, workers: ["w1", "w2"], conductor: false });
    expect(resumeNeeds({ ...parent, maxRounds: 1 }, false).conductor).toBe(true);
    expect(resumeNeeds(parent, true).conductor).toBe(true);
  });

  it("resumes a fallback worker's round as the fallback it was", () => {
    const fallback = { worker: "w1", reason: { code: "unparseable_list", message: "no lists" } };
    const parent = run({
      status: "interrupted",
      maxRounds: 1,
      rounds: [{ ...round(0, ["interrupted"], doc.steps.slice(0, 1)), fallback }],
    });
    expect(planResume(parent, true).start).toMatchObject({ from: "round", round: 0, fallback });
    expect(
      planResume(run({ status: "interrupted", rounds: [round(0, ["done", "interrupted"])] }), true)
        .start,
    ).not.toHaveProperty("fallback");
  });

  it("plans again when the run stopped before its plan, planning only for a planned run", () => {
    const empty = { ...round(0, [], []), plan: { ...PLAN, finishedAt: null } };
    const parent = run({ status: "interrupted", kind: "planned", rounds: [empty] });
    expect(planResume(parent, true)).toEqual({
      start: { from: "plan", round: 0, planOnly: true },
      seed: undefined,
      planning: true,
      plansAgain: true,
      refine: false,
    });
    expect(planResume({ ...parent, kind: "manual" }, true).start).toEqual({
      from: "plan",
      round: 0,
      planOnly: false,
    });
    expect(resumeNeeds(parent, false)).toMatchObject({ plans: true, conductor: true });
  });

  it("asks for a later round's plan again as a run, keeping the rounds before it", () => {
    const later = { ...round(1, [], []), plan: { ...PLAN, finishedAt: null } };
    const parent = run({
      status: "interrupted",
      maxRounds: 2,
      rounds: [round(0, ["done"]), later],
    });
    const plan = planResume(parent, true);
    expect(plan).toMatchObject({
      start: { from: "plan", round: 1, planOnly: false },
      planning: false,
      plansAgain: true,
      refine: true,
    });
    expect(plan.seed?.rounds.map((r) => r.index)).toEqual([0, 1]);
    // The plan asked again is the new run's own call (its cost counts there), not a kept part.
    expect(plan.seed?.kept).toEqual([
      { parent: [], round: 0, step: null },
      { parent: [], round: 0, step: 0 },
    ]);
  });
});

describe("planRun and planResume, case by case", () => {
  it("refines only a whole top-level run with rounds asked for", () => {
    expect(refines({ focus: TOP, rounds: 0 })).toBe(false);
    expect(refines({ focus: TOP, rounds: 1 })).toBe(true);
    expect(refines({ focus: TOP, fromStepId: "a", rounds: 1 })).toBe(false);
    expect(planRun(request({ rounds: 0 }))).toMatchObject({ ok: true, plan: { refine: false } });
  });

  it("continues a hand-built run (no Conductor plan) with no Conductor text", () => {
    const parent = run({ rounds: [{ ...round(0, ["done", "done", "done", "done"]), plan: null }] });
    const planned = planRun(request({ parent }));
    expect(planned).toMatchObject({ ok: true, plan: { kind: "rerun", start: { raw: undefined } } });
  });

  it("runs an unedited planned run as itself, successfully", () => {
    const parent = plannedRun();
    expect(planRun(request({ parent }))).toMatchObject({ ok: true, plan: { append: true } });
  });

  it("is a re-run from a step even when the workflow was edited too", () => {
    const parent = run({});
    const edited = makeDoc([[], [0], "all", [], []]);
    const results = { a: done("A"), b: done("B") };
    expect(planRun(request({ parent, doc: edited, results, fromStepId: "b" }))).toMatchObject({
      ok: true,
      plan: { kind: "rerun", parentId: "parent" },
    });
  });

  it("resumes the unfinished round with that round's steps", () => {
    const parent = run({
      status: "interrupted",
      rounds: [round(0, ["done", "interrupted", "queued", "done"])],
    });
    const plan = planResume(parent, true);
    if (plan.start.from !== "round") throw new Error("a round start");
    expect(plan.start.steps).toEqual(stepsOf(doc));
    // Only the finished steps are kept parts: the plan and steps a and d.
    expect(plan.seed?.kept).toEqual([
      { parent: [], round: 0, step: null },
      { parent: [], round: 0, step: 0 },
      { parent: [], round: 0, step: 3 },
    ]);
  });

  it("plans a later round again as a run, not as a plan only, even for a planned run", () => {
    const later = { ...round(1, [], []), plan: { ...PLAN, finishedAt: null } };
    const parent = run({
      status: "interrupted",
      kind: "planned",
      maxRounds: 2,
      rounds: [round(0, ["done"]), later],
    });
    expect(planResume(parent, true).start).toEqual({ from: "plan", round: 1, planOnly: false });
  });
});
