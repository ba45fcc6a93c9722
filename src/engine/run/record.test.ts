import { describe, expect, it } from "vitest";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import type { ChatMessage, Usage } from "../schema/usage.ts";
import type { Pool } from "../schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { applyEvent, emptyRecord, recordOf } from "./record.ts";
import * as ev from "../../test-support/engine/run/events.ts";

const question = "Is 391 a prime number?";
const pool: Pool = [
  WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha-1", price: { input: 1, output: 2 } }),
  WorkerSchema.parse({ id: "b", name: "Beta", model: "beta-1" }),
];
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });
const steps: Step[] = [
  { worker: "a", subtask: "Factor 391.", access: [] },
  { worker: "b", subtask: "Check the factors and answer.", access: "all" },
];
const planMessages: ChatMessage[] = [
  { role: "system", content: "You coordinate." },
  { role: "user", content: "Plan for: Is 391 a prime number?" },
];
const m0: ChatMessage[] = [{ role: "user", content: "Your assigned subtask: Factor 391." }];
const m1: ChatMessage[] = [
  { role: "user", content: "Your assigned subtask: Check the factors and answer." },
];
const raw0 =
  'model_id = [0, 1]\nsubtasks = ["Factor 391.", "Check the factors and answer."]\naccess_list = [[], ["all"]]';
const raw1 = "Correct.\nmodel_id = []\nsubtasks = []\naccess_list = []";
const planUsage: Usage = { promptTokens: 300, completionTokens: 40, estimated: false };
const acceptUsage: Usage = { promptTokens: 400, completionTokens: 12, estimated: false };
const u0: Usage = { promptTokens: 50, completionTokens: 10, estimated: false };
const u1: Usage = { promptTokens: 80, completionTokens: 5, estimated: true };

/** The first round's plan_finish of the log. */
function firstPlanFinish(): Extract<RunEvent, { type: "plan_finish" }> {
  const e = log.find((x) => x.type === "plan_finish");
  if (e?.type !== "plan_finish") throw new Error("the log has no plan_finish");
  return e;
}

/** A whole run: plan, two steps (the first retried once), a refinement round that accepts. */
const log: RunEvent[] = [
  {
    type: "run_start",
    at: 100,
    runId: "run-1",
    question,
    pool,
    conductor,
    maxSteps: 5,
    maxRounds: 1,
  },
  ev.planStart(110, { messages: planMessages }),
  { type: "plan_delta", round: 0, text: raw0.slice(0, 20) },
  { type: "plan_delta", round: 0, text: raw0.slice(20) },
  ev.planFinish(150, { raw: raw0, usage: planUsage, cost: 0.001, steps, workerIds: ["a", "b"] }),
  ev.roundStart(151, { steps }),
  { type: "step_queued", round: 0, step: 0 },
  { type: "step_queued", round: 0, step: 1 },
  ev.stepStart(160, { step: 0, attempt: 1, messages: m0 }),
  { type: "step_delta", round: 0, step: 0, text: "Wrong start " },
  ev.stepRetry(170, { step: 0, attempt: 2, delayMs: 1000, code: "dropped", message: "Dropped." }),
  ev.stepStart(1170, { step: 0, attempt: 2, messages: m0 }),
  { type: "step_delta", round: 0, step: 0, text: "391 = 17 x 23." },
  ev.stepFinish(1200, { step: 0, output: "391 = 17 x 23.", usage: u0, cost: 0.00007 }),
  ev.stepStart(1201, { step: 1, attempt: 1, messages: m1 }),
  { type: "step_delta", round: 0, step: 1, text: "No, " },
  { type: "step_delta", round: 0, step: 1, text: "391 is not prime." },
  ev.stepFinish(1300, { step: 1, output: "No, 391 is not prime.", usage: u1, cost: 0 }),
  { type: "round_finish", at: 1301, round: 0, answer: "No, 391 is not prime." },
  ev.planStart(1302, { round: 1, messages: planMessages }),
  { type: "plan_delta", round: 1, text: raw1 },
  ev.planFinish(1350, { round: 1, raw: raw1, usage: acceptUsage, cost: 0.002, steps: [] }),
  {
    type: "run_finish",
    at: 1351,
    status: "done",
    reason: "accepted",
    answer: "No, 391 is not prime.",
  },
];

function upTo(n: number): RunRecord {
  return recordOf(log.slice(0, n));
}
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe("recordOf", () => {
  const record = recordOf(log);

  it("gives the run's status, reason, times, question, pool and answer", () => {
    expect(record).toMatchObject({
      id: "run-1",
      question,
      pool,
      conductor,
      maxSteps: 5,
      maxRounds: 1,
      status: "done",
      endReason: "accepted",
      message: null,
      startedAt: 100,
      finishedAt: 1351,
      answer: "No, 391 is not prime.",
    });
  });

  it("keeps each step's output, usage, cost, status, times and attempts", () => {
    expect(record.rounds[0]?.steps).toEqual([
      {
        index: 0,
        worker: "a",
        workerName: "Alpha",
        subtask: "Factor 391.",
        access: [],
        status: "done",
        messages: m0,
        output: "391 = 17 x 23.",
        // The dropped first attempt stays on record, for traces (otel/): retries as siblings.
        tries: [
          {
            attempt: 1,
            startedAt: 160,
            finishedAt: 170,
            code: "dropped",
            status: null,
            message: "Dropped.",
          },
        ],
        attemptStartedAt: 1170,
        startedAt: 160,
        finishedAt: 1200,
        attempts: 2,
        usage: u0,
        cost: 0.00007,
        error: null,
        nested: null,
      },
      {
        index: 1,
        worker: "b",
        workerName: "Beta",
        subtask: "Check the factors and answer.",
        access: "all",
        status: "done",
        messages: m1,
        output: "No, 391 is not prime.",
        startedAt: 1201,
        finishedAt: 1300,
        attempts: 1,
        usage: u1,
        cost: 0,
        error: null,
        nested: null,
      },
    ]);
  });

  it("adds up the totals over plans and steps, estimated if any usage was", () => {
    expect(record.totals).toEqual({
      promptTokens: 300 + 50 + 80 + 400,
      completionTokens: 40 + 10 + 5 + 12,
      cost: 0.001 + 0.00007 + 0 + 0.002,
      estimated: true,
      calls: 4,
    });
    const exact = recordOf(log.map((e) => (e.type === "step_finish" ? { ...e, usage: u0 } : e)));
    expect(exact.totals.estimated).toBe(false);
  });

  it("keeps the rounds: plans, lists, answers and the accept", () => {
    expect(record.rounds.map((r) => [r.index, r.answer, r.accepted])).toEqual([
      [0, "No, 391 is not prime.", false],
      [1, null, true],
    ]);
    expect(record.rounds[0]?.lists).toEqual({
      model_id: [0, 1],
      subtasks: ["Factor 391.", "Check the factors and answer."],
      access_list: [[], "all"],
      workerIds: ["a", "b"],
    });
    // A plan_finish without workerIds: the run's pool as it is.
    expect(record.rounds[1]?.lists).toEqual({
      model_id: [],
      subtasks: [],
      access_list: [],
      workerIds: ["a", "b"],
    });
    expect(record.rounds[0]?.plan).toEqual({
      messages: planMessages,
      raw: raw0,
      startedAt: 110,
      finishedAt: 150,
      usage: planUsage,
      cost: 0.001,
      error: null,
    });
  });

  it("tracks progress as it goes: planning, streaming, a retry restarting the text", () => {
    expect(upTo(3).status).toBe("planning");
    expect(upTo(3).rounds[0]?.plan?.raw).toBe(raw0.slice(0, 20));
    expect(upTo(6).status).toBe("running");
    expect(upTo(6).rounds[0]?.steps.map((s) => s.status)).toEqual(["idle", "idle"]);
    expect(upTo(8).rounds[0]?.steps.map((s) => s.status)).toEqual(["queued", "queued"]);
    expect(upTo(10).rounds[0]?.steps[0]).toMatchObject({
      status: "running",
      output: "Wrong start ",
    });
    expect(upTo(11).rounds[0]?.steps[0]?.error).toEqual({ code: "dropped", message: "Dropped." });
    expect(upTo(12).rounds[0]?.steps[0]).toMatchObject({
      output: "",
      error: null,
      attempts: 2,
      startedAt: 160,
    });
  });

  it("records a failed step, a cancelled one and a failed run", () => {
    const failed = recordOf([
      ...log.slice(0, 12),
      { type: "step_error", at: 1190, round: 0, step: 0, code: "server", message: "Server error." },
      { type: "step_cancel", at: 1191, round: 0, step: 1 },
      { type: "round_finish", at: 1192, round: 0, answer: null },
      {
        type: "run_finish",
        at: 1193,
        status: "failed",
        reason: "step_error",
        answer: null,
        message: "A step failed.",
      },
    ]);
    expect(failed.rounds[0]?.steps[0]).toMatchObject({
      status: "failed",
      finishedAt: 1190,
      error: { code: "server", message: "Server error." },
    });
    expect(failed.rounds[0]?.steps[1]).toMatchObject({ status: "cancelled", finishedAt: 1191 });
    expect(failed).toMatchObject({
      status: "failed",
      endReason: "step_error",
      message: "A step failed.",
      answer: null,
    });
    expect(failed.totals.calls).toBe(1);
  });

  it("keeps a failed plan's raw text and error, with no lists", () => {
    const error = { code: "length_mismatch", message: "The three lists have different lengths." };
    const failed = recordOf([
      ...log.slice(0, 4),
      ev.planFinish(150, { raw: raw0, usage: planUsage, cost: 0.001, error }),
    ]);
    expect(failed.rounds[0]?.plan).toMatchObject({ raw: raw0, error });
    expect(failed.rounds[0]?.lists).toBeNull();
  });

  it("keeps the named steps' results through a round_start with keep, and resets the others", () => {
    const rerun = applyEvent(record, ev.roundStart(2000, { steps, keep: [0] }));
    expect(rerun.rounds[0]?.steps[0]).toEqual(record.rounds[0]?.steps[0]);
    expect(rerun.rounds[0]?.steps[1]).toMatchObject({
      status: "idle",
      output: "",
      attempts: 0,
      usage: null,
    });
    expect(rerun.rounds[0]?.answer).toBeNull();
  });

  it("names a worker missing from the pool by its id", () => {
    const r = recordOf([
      log[0]!,
      ev.roundStart(1, { steps: [{ worker: "gone", subtask: "X.", access: [] }] }),
    ]);
    expect(r.rounds[0]?.steps[0]).toMatchObject({ worker: "gone", workerName: "gone" });
  });

  it("numbers the lists by the workerIds the plan was shown, not by the pool's order now", () => {
    const shown = ["b", "a"];
    const r = recordOf([
      log[0]!,
      ev.planStart(110, { messages: planMessages }),
      { ...firstPlanFinish(), workerIds: shown },
    ]);
    expect(r.rounds[0]?.lists).toMatchObject({ model_id: [1, 0], workerIds: shown });
    // A round_start after it keeps those lists; the steps still name their workers by id.
    const started = applyEvent(r, ev.roundStart(151, { steps }));
    expect(started.rounds[0]?.lists).toMatchObject({ model_id: [1, 0], workerIds: shown });
    expect(started.rounds[0]?.steps.map((st) => [st.worker, st.workerName])).toEqual([
      ["a", "Alpha"],
      ["b", "Beta"],
    ]);
    // A round that starts with no plan (a hand-built workflow) numbers them by the run's pool.
    const hand = recordOf([log[0]!, ev.roundStart(1, { steps })]);
    expect(hand.rounds[0]?.lists).toMatchObject({ model_id: [0, 1], workerIds: ["a", "b"] });
  });

  it("keeps the opening a plan grammar left out of the messages, as of the latest attempt", () => {
    const opening = "Let me think.";
    const constrained = recordOf([log[0]!, ev.planStart(110, { messages: planMessages, opening })]);
    expect(constrained.rounds[0]?.plan).toMatchObject({ messages: planMessages, opening });
    // The grammar did not compile and the plan started over with the prompt as written.
    const plain = applyEvent(constrained, ev.planStart(111, { messages: planMessages }));
    expect(plain.rounds[0]?.plan).not.toHaveProperty("opening");
    // A start that leaves nothing out (no grammar) records no opening at all.
    expect(record.rounds[0]?.plan).not.toHaveProperty("opening");
  });

  it("ignores an event for a step the round does not have", () => {
    const before = upTo(8);
    expect(applyEvent(before, { type: "step_delta", round: 0, step: 5, text: "ghost" })).toEqual(
      before,
    );
  });

  it("starts from a fresh record at run_start, whatever came before", () => {
    const again = applyEvent(record, log[0]!);
    expect(again).toEqual({
      ...emptyRecord("run-1"),
      kind: "planned",
      createdAt: 100,
      question,
      pool,
      conductor,
      maxRounds: 1,
      status: "planning",
      startedAt: 100,
    });
  });
});

describe("applyEvent", () => {
  it("never mutates the record or the event it is given", () => {
    let record = deepFreeze(emptyRecord());
    const extra: RunEvent[] = [
      ev.roundStart(2000, { steps, keep: [0] }),
      { type: "step_queued", round: 0, step: 1 },
      { type: "step_error", at: 2001, round: 0, step: 1, code: "auth", message: "Key refused." },
      { type: "step_cancel", at: 2002, round: 0, step: 1 },
    ];
    for (const event of [...log, ...extra]) {
      const next = applyEvent(record, deepFreeze(event));
      expect(next).not.toBe(record);
      record = deepFreeze(next);
    }
    expect(record.rounds[0]?.steps[1]?.status).toBe("cancelled");
    expect(record.rounds[0]?.steps[0]?.output).toBe("391 = 17 x 23.");
  });
});
