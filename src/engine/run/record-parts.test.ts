// The parts a run record is built from (record-parts.ts) and where an event lands in it
// (record-paths.ts): padding rounds, nested workflows made on first use, events for steps the
// record never saw, rejected plans, retries.
import { describe, expect, it } from "vitest";
import type { EventOf } from "../schema/events.ts";
import type { PlanRecord, RoundRecord, RunRecord, StepRecord } from "../schema/record.ts";
import { WorkerSchema } from "../schema/worker.ts";
import {
  emptyRecord,
  emptyRound,
  failedAttempt,
  listsOf,
  more,
  rejectedOf,
  retryState,
  stepRecord,
} from "./record-parts.ts";
import { withPlan, withRound, withStep } from "./record-paths.ts";

const pool = [WorkerSchema.parse({ id: "w0", name: "Alpha" })];
const step = (i: number, patch: Partial<StepRecord> = {}): StepRecord => ({
  ...stepRecord({ pool }, { worker: "w0", subtask: `task ${i}`, access: [] }, i),
  ...patch,
});
const round = (index: number, steps: StepRecord[]): RoundRecord => ({
  ...emptyRound(index),
  steps,
});
const record = (rounds: RoundRecord[]): RunRecord => ({ ...emptyRecord("r"), pool, rounds });
const ERROR = { code: "unparseable_list", message: "A list could not be read" };
const PLAN: PlanRecord = {
  messages: [],
  raw: "model_id = [",
  startedAt: 1,
  finishedAt: 2,
  usage: { promptTokens: 3, completionTokens: 4, estimated: false },
  cost: 0.1,
  error: ERROR,
};

describe("record parts", () => {
  it("starts a record as an empty manual draft, and a round as an unaccepted empty one", () => {
    expect(emptyRecord()).toMatchObject({
      id: "run",
      kind: "manual",
      question: "",
      pool: [],
      status: "draft",
      rounds: [],
      answer: null,
    });
    expect(emptyRecord("x").id).toBe("x");
    expect(emptyRound(3)).toEqual({
      index: 3,
      plan: null,
      lists: null,
      steps: [],
      answer: null,
      accepted: false,
    });
    expect(step(0).messages).toEqual([]);
  });

  it("names a step's worker by its pool name, or by its id when the pool lacks it", () => {
    expect(step(0).workerName).toBe("Alpha");
    expect(stepRecord({ pool }, { worker: "zz", subtask: "s", access: "all" }, 2)).toMatchObject({
      index: 2,
      worker: "zz",
      workerName: "zz",
      access: "all",
      status: "idle",
      output: "",
      nested: null,
    });
  });

  it("numbers lists by the workers shown, a worker not shown as -1, with its own copy of the ids", () => {
    const ids = ["w1", "w0"];
    const lists = listsOf(
      [
        { worker: "w0", subtask: "a", access: [] },
        { worker: "gone", subtask: "b", access: [0] },
      ],
      ids,
    );
    expect(lists).toEqual({
      model_id: [1, -1],
      subtasks: ["a", "b"],
      access_list: [[], [0]],
      workerIds: ["w1", "w0"],
    });
    expect(lists?.workerIds).not.toBe(ids);
  });

  it("keeps a plan's rejected outputs, adding its own only once it finished with a parse error", () => {
    const own = { raw: PLAN.raw, error: ERROR, usage: PLAN.usage, cost: PLAN.cost };
    expect(rejectedOf(PLAN)).toEqual({ rejected: [own] });
    const earlier = { ...own, raw: "earlier" };
    expect(rejectedOf({ ...PLAN, rejected: [earlier] })).toEqual({ rejected: [earlier, own] });
    expect(rejectedOf({ ...PLAN, finishedAt: null })).toEqual({});
    expect(rejectedOf({ ...PLAN, error: null })).toEqual({});
    // A refused key is no rejected plan: asking again would not help.
    expect(rejectedOf({ ...PLAN, error: { code: "auth", message: "401" } })).toEqual({});
    expect(rejectedOf({ ...PLAN, finishedAt: null, rejected: [earlier] })).toEqual({
      rejected: [earlier],
    });
  });

  it("appends reasoning, and keeps none while there is none", () => {
    expect(more(undefined, "")).toBeUndefined();
    expect(more("", "")).toBeUndefined();
    expect(more(undefined, "a")).toBe("a");
    expect(more("a", "b")).toBe("ab");
  });

  it("records a retry and the attempt it ended", () => {
    const e: EventOf<"step_retry"> = {
      type: "step_retry",
      at: 50,
      round: 0,
      step: 1,
      attempt: 3,
      delayMs: 200,
      code: "rate_limited",
      message: "slow down",
    };
    expect(retryState(e)).toEqual({
      attempt: 3,
      of: null,
      at: 50,
      delayMs: 200,
      code: "rate_limited",
      status: null,
      message: "slow down",
    });
    expect(retryState({ ...e, of: 4, status: 429 })).toMatchObject({ of: 4, status: 429 });
    expect(failedAttempt({ ...e, status: 429 }, 20)).toEqual({
      attempt: 2,
      startedAt: 20,
      finishedAt: 50,
      code: "rate_limited",
      status: 429,
      message: "slow down",
    });
    expect(failedAttempt(e, null)).toMatchObject({ startedAt: null, status: null });
  });
});

describe("where an event lands", () => {
  it("pads the top level with empty, numbered rounds up to the one named, without mutating", () => {
    const r = record([round(0, [step(0)])]);
    const before = structuredClone(r);
    const out = withRound(r, undefined, 2, (rd) => ({ ...rd, answer: "x" }));
    expect(out.rounds.map((rd) => [rd.index, rd.answer, rd.steps.length])).toEqual([
      [0, null, 1],
      [1, null, 0],
      [2, "x", 0],
    ]);
    expect(r).toEqual(before);
    expect(withRound(r, [], 0, (rd) => ({ ...rd, accepted: true })).rounds[0]?.accepted).toBe(true);
  });

  it("makes a step's nested workflow on first use, asking the step's last user message", () => {
    const messages = [
      { role: "user" as const, content: "first" },
      { role: "assistant" as const, content: "x" },
      { role: "user" as const, content: "the real question" },
      { role: "assistant" as const, content: "a reply" },
    ];
    const r = record([round(0, [step(0), step(1, { messages })])]);
    const out = withRound(r, [{ round: 0, step: 1 }], 0, (rd) => ({ ...rd, answer: "inner" }));
    expect(out.rounds[0]?.steps[1]?.nested).toEqual({
      depth: 1,
      question: "the real question",
      rounds: [{ ...emptyRound(0), answer: "inner" }],
      answer: null,
    });
    expect(out.rounds[0]?.steps[0]).toBe(r.rounds[0]?.steps[0]);
    expect(r.rounds[0]?.steps[1]?.nested).toBeNull();
  });

  it("asks the subtask where there is no user message, and counts depth down the path", () => {
    const r = record([round(0, [step(0)])]);
    const one = withRound(r, [{ round: 0, step: 0 }], 0, (rd) => ({ ...rd, steps: [step(0)] }));
    const path = [
      { round: 0, step: 0 },
      { round: 0, step: 0 },
    ];
    const two = withRound(one, path, 0, (rd) => ({ ...rd, answer: "deep" }));
    const outer = two.rounds[0]?.steps[0]?.nested;
    expect(outer).toMatchObject({ depth: 1, question: "task 0" });
    expect(outer?.rounds[0]?.steps[0]?.nested).toMatchObject({
      depth: 2,
      question: "task 0",
      rounds: [{ index: 0, answer: "deep" }],
    });
    // An existing nested workflow keeps its own question and answer.
    const again = withRound(two, [{ round: 0, step: 0 }], 1, (rd) => rd);
    expect(again.rounds[0]?.steps[0]?.nested?.rounds).toHaveLength(2);
  });

  it("updates a nested workflow in a later round, keeping the rounds around it", () => {
    const r = record([round(0, [step(0)]), round(1, [step(0)]), round(2, [])]);
    const out = withRound(r, [{ round: 1, step: 0 }], 0, (rd) => ({ ...rd, answer: "in 2" }));
    expect(out.rounds.map((rd) => rd.index)).toEqual([0, 1, 2]);
    expect(out.rounds[0]).toBe(r.rounds[0]);
    expect(out.rounds[2]).toBe(r.rounds[2]);
    expect(out.rounds[1]?.steps[0]?.nested?.rounds[0]?.answer).toBe("in 2");
  });

  it("leaves the record as it was for a path to a round or step it does not have", () => {
    const r = record([round(0, [step(0)])]);
    const f = (rd: RoundRecord) => ({ ...rd, answer: "no" });
    expect(withRound(r, [{ round: 3, step: 0 }], 0, f)).toEqual(r);
    expect(withRound(r, [{ round: 0, step: 5 }], 0, f)).toEqual(r);
  });

  it("updates one step, and ignores an event for a step the record never saw", () => {
    const r = record([round(0, [step(0), step(1)])]);
    const out = withStep(r, undefined, 0, 1, (s) => ({ ...s, status: "done", output: "B" }));
    expect(out.rounds[0]?.steps.map((s) => [s.status, s.output])).toEqual([
      ["idle", ""],
      ["done", "B"],
    ]);
    expect(withStep(r, undefined, 0, 7, (s) => ({ ...s, output: "x" }))).toEqual(r);
  });

  it("starts a plan from an empty one, and updates one already there", () => {
    const r = record([round(0, [])]);
    const seen: PlanRecord[] = [];
    const out = withPlan(r, undefined, 0, (p) => {
      seen.push(p);
      return { ...p, raw: "x" };
    });
    // Nothing is known of it yet: no messages, no text, and no times, usage, cost or error.
    const unknown = { startedAt: null, finishedAt: null, usage: null, cost: null, error: null };
    expect(seen).toEqual([{ messages: [], raw: "", ...unknown }]);
    expect(out.rounds[0]?.plan?.raw).toBe("x");
    const twice = withPlan(out, undefined, 0, (p) => ({ ...p, raw: `${p.raw}y` }));
    expect(twice.rounds[0]?.plan?.raw).toBe("xy");
  });
});
