// What a continuing run carries over (seedFrom), how a record left by a closed page reads
// (interrupted), where Resume starts (resumePoint), and stepsAt on rounds with no steps.
import { describe, expect, it } from "vitest";
import type { RoundRecord, RunRecord, StepRecord, StepStatus } from "../schema/record.ts";
import { interrupted, resumePoint, seedFrom, stepsAt } from "./continue.ts";
import { TOP } from "./focus.ts";
import { emptyRecord, stepRecord } from "./record.ts";

const PLAN = {
  messages: [],
  raw: "plan",
  startedAt: 1,
  finishedAt: 2,
  usage: null,
  cost: null,
  error: null,
};

const step = (i: number, status: StepStatus, nested: RoundRecord[] | null = null): StepRecord => ({
  ...stepRecord({ pool: [] }, { worker: "w", subtask: `s${i}`, access: [] }, i),
  status,
  output: status === "idle" ? "" : `out ${i}`,
  nested: nested && { depth: 1, question: "inner", rounds: nested, answer: null },
});
const round = (index: number, steps: StepRecord[], plan = true): RoundRecord => ({
  index,
  plan: plan ? PLAN : null,
  lists: null,
  steps,
  answer: null,
  accepted: false,
});
const record = (rounds: RoundRecord[], patch: Partial<RunRecord> = {}): RunRecord => ({
  ...emptyRecord("base"),
  status: "done",
  rounds,
  ...patch,
});

/** Round 0: a done, a Conductor step with a nested workflow, a failed step, another nested one. */
const inner = () => [round(0, [step(0, "done"), step(1, "done")], false)];
const base = record([
  round(0, [
    step(0, "done"),
    step(1, "done", inner()),
    step(2, "failed"),
    step(3, "done", inner()),
  ]),
  round(1, [step(0, "done"), step(1, "done", inner())], false),
]);

/** What `base` holds finished: round 0's plan, its step 0, and the nested steps of steps 1 and 3. */
const EVERY_FINISHED = [
  { parent: [], round: 0, step: null },
  { parent: [], round: 0, step: 0 },
  { parent: [{ round: 0, step: 1 }], round: 0, step: 0 },
  { parent: [{ round: 0, step: 1 }], round: 0, step: 1 },
  { parent: [{ round: 0, step: 3 }], round: 0, step: 0 },
  { parent: [{ round: 0, step: 3 }], round: 0, step: 1 },
];

describe("seedFrom: the parts a continuing run keeps", () => {
  it("keeps plans and finished steps, not failed ones, and recurses into nested workflows", () => {
    expect(seedFrom(base, TOP, [0, 1, 2, 3])).toEqual({
      rounds: [base.rounds[0]],
      kept: EVERY_FINISHED,
    });
  });

  it("drops the steps of the round that runs again unless kept, and what is inside them", () => {
    expect(seedFrom(base, TOP, [0]).kept).toEqual([
      { parent: [], round: 0, step: null },
      { parent: [], round: 0, step: 0 },
    ]);
  });

  it("runs a later round again: earlier rounds are kept whole, a round without a plan has none", () => {
    expect(seedFrom(base, { parent: [], round: 1 }, []).kept).toEqual(EVERY_FINISHED);
  });

  it("re-runs one nested workflow: only its own steps outside `keep` go", () => {
    const at = { parent: [{ round: 0, step: 1 }], round: 0 };
    expect(seedFrom(base, at, [1]).kept).toEqual([
      { parent: [], round: 0, step: null },
      { parent: [], round: 0, step: 0 },
      { parent: [{ round: 0, step: 1 }], round: 0, step: 1 },
      // The nested workflow of step 4 has the same round and a different step: kept whole.
      { parent: [{ round: 0, step: 3 }], round: 0, step: 0 },
      { parent: [{ round: 0, step: 3 }], round: 0, step: 1 },
    ]);
    // The nested workflow of round 2's step 2: round 1's one (same step, other round) stays whole.
    const later = { parent: [{ round: 1, step: 1 }], round: 0 };
    const seed = seedFrom(base, later, []);
    expect(seed.rounds).toEqual(base.rounds);
    expect(seed.kept).toContainEqual({ parent: [{ round: 0, step: 1 }], round: 0, step: 1 });
    expect(seed.kept).not.toContainEqual({ parent: [{ round: 1, step: 1 }], round: 0, step: 0 });
    expect(seed.kept).toContainEqual({ parent: [], round: 1, step: 0 });
  });
});

describe("interrupted: a record whose page went away", () => {
  it("marks what was running or queued as interrupted, nested steps too, and the run", () => {
    const live = record(
      [
        round(0, [
          step(0, "done"),
          step(1, "running", [round(0, [step(0, "queued"), step(1, "done")], false)]),
          step(2, "queued"),
          step(3, "failed"),
        ]),
      ],
      { status: "running" },
    );
    const out = interrupted(live);
    expect(out.status).toBe("interrupted");
    const steps = out.rounds[0]!.steps;
    expect(steps.map((s) => s.status)).toEqual(["done", "interrupted", "interrupted", "failed"]);
    expect(steps.map((s) => s.output)).toEqual(live.rounds[0]!.steps.map((s) => s.output));
    expect(steps[1]?.nested?.rounds[0]?.steps.map((s) => s.status)).toEqual([
      "interrupted",
      "done",
    ]);
    expect(steps[1]?.nested?.question).toBe("inner");
    expect(steps[0]?.nested).toBeNull();
    expect(interrupted({ ...live, status: "planning" }).status).toBe("interrupted");
  });

  it("returns a finished, failed or planned record as it is", () => {
    for (const status of ["done", "failed", "planned", "interrupted", "draft"] as const) {
      const r = record([round(0, [step(0, "queued")])], { status });
      expect(interrupted(r)).toBe(r);
    }
  });
});

describe("resumePoint and stepsAt on rounds without steps", () => {
  it("skips a later round with neither steps nor a plan, and starts at the plan of an empty run", () => {
    const r = record([round(0, [step(0, "done"), step(1, "interrupted")]), round(1, [], false)]);
    expect(resumePoint(r)).toEqual({ at: "round", round: 0, keep: new Map([[0, "out 0"]]) });
    expect(resumePoint(record([]))).toEqual({ at: "plan", round: 0 });
  });

  it("gives no steps for a round that is missing or has neither steps nor lists", () => {
    expect(stepsAt(record([]), TOP)).toEqual([]);
    expect(stepsAt(record([round(0, [])]), TOP)).toEqual([]);
  });

  it("fills a ragged list's missing subtask and access with empty ones", () => {
    const lists = { model_id: [0, 0], subtasks: ["a"], access_list: [[]], workerIds: ["w"] };
    const r = record([{ ...round(0, []), lists }]);
    expect(stepsAt(r, TOP)).toEqual([
      { worker: "w", subtask: "a", access: [] },
      { worker: "w", subtask: "", access: [] },
    ]);
  });
});
