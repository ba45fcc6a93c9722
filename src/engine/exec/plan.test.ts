import { describe, expect, it } from "vitest";
import { callCost } from "../cost.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatBackend } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import { CallBudget } from "./execute.ts";
import type { PlanOptions } from "./plan.ts";
import { drain, ofType, planStarter } from "../../test-support/engine/exec/run-events.ts";

const conductor = ConductorConfigSchema.parse({ model: "c", price: { input: 1, output: 3 } });
const fastRetry = { baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 0, random: () => 0.5 };
const plan = `Two steps.
model_id = [1, 0]
subtasks = ["Solve it.", "Check it and answer."]
access_list = [[], ["all"]]`;

const start = planStarter({
  conductor,
  messages: [{ role: "user", content: "Plan for the question." }],
  workerIds: ["wa", "wb"],
  maxSteps: 5,
  round: 0,
  retry: fastRetry,
  now: () => 7,
});
function plan0(replies: FakeReply[], extra: Partial<PlanOptions> = {}) {
  return start(createFakeBackend(replies), extra);
}
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe("planRound", () => {
  it("streams the plan and finishes with the parsed steps, usage and cost", async () => {
    const { events, outcome } = await drain(plan0([{ text: plan }]));
    expect(events[0]).toEqual({
      type: "plan_start",
      at: 7,
      round: 0,
      messages: [{ role: "user", content: "Plan for the question." }],
    });
    expect(
      ofType(events, "plan_delta")
        .map((d) => d.text)
        .join(""),
    ).toBe(plan);
    const finish = ofType(events, "plan_finish")[0];
    const steps = [
      { worker: "wb", subtask: "Solve it.", access: [] },
      { worker: "wa", subtask: "Check it and answer.", access: "all" },
    ];
    expect(finish).toMatchObject({ raw: plan, steps, workerIds: ["wa", "wb"] });
    expect(finish?.error).toBeUndefined();
    expect(finish?.cost).toBe(finish ? callCost(finish.usage, conductor.price) : -1);
    expect(outcome).toEqual({ ok: true, raw: plan, steps });
  });

  it("gives a plan the ids of the pool as its prompt showed it; the record keeps the numbers and the ids", async () => {
    const shown = ["id-A", "id-B", "id-C"];
    const text = `model_id = [2, 0, 1]
subtasks = ["Draft.", "Check.", "Answer."]
access_list = [[], [0], ["all"]]`;
    const { events, outcome } = await drain(plan0([{ text }], { workerIds: shown }));
    const steps = [
      { worker: "id-C", subtask: "Draft.", access: [] },
      { worker: "id-A", subtask: "Check.", access: [0] },
      { worker: "id-B", subtask: "Answer.", access: "all" },
    ];
    expect(outcome).toEqual({ ok: true, raw: text, steps });
    const finish = ofType(events, "plan_finish")[0];
    expect(finish?.steps).toEqual(steps);
    expect(finish?.workerIds).toEqual(shown);
    // The record's pool is in another order: the lists keep the mapping the prompt used.
    const pool = ["id-B", "id-C", "id-A"].map((id) => WorkerSchema.parse({ id, name: id }));
    const record = recordOf([
      { type: "run_start", at: 0, runId: "r", question: "q", pool, maxSteps: 5, maxRounds: 0 },
      ...events,
    ]);
    expect(record.rounds[0]?.lists).toEqual({
      model_id: [2, 0, 1],
      subtasks: ["Draft.", "Check.", "Answer."],
      access_list: [[], [0], "all"],
      workerIds: shown,
    });
  });

  it("returns the parse error with the raw text", async () => {
    const { outcome } = await drain(
      plan0([{ text: 'model_id = [5]\nsubtasks = ["x"]\naccess_list = [[]]' }]),
    );
    expect(outcome).toMatchObject({
      ok: false,
      code: "bad_worker",
      cancelled: false,
      raw: expect.stringContaining("[5]") as unknown,
    });
  });

  it("starts the text over with a new plan_start when it retries", async () => {
    const { events, outcome } = await drain(
      plan0([
        { chunks: ["Half "], failAfterChunks: 1, error: new LlmError("server", undefined, 500) },
        { text: plan },
      ]),
    );
    expect(events.map((e) => e.type).filter((t) => t === "plan_start")).toHaveLength(2);
    expect(outcome.raw).toBe(plan);
    expect(recordOf(events).rounds[0]?.plan?.raw).toBe(plan);
  });

  it("reports a call the budget denies as code budget, without calling", async () => {
    const budget = new CallBudget(0);
    const { outcome } = await drain(plan0([{ text: plan }], { budget }));
    expect(outcome).toMatchObject({ ok: false, code: "budget", cancelled: false });
  });

  it("reports a cancel as cancelled, keeping the text so far", async () => {
    const controller = new AbortController();
    const hangs: ChatBackend = {
      label: "hangs",
      continuesAssistant: true,
      async *stream(_request, signal) {
        yield { type: "delta", text: "model_id = " };
        await new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(new LlmError("aborted"))),
        );
      },
    };
    const gen = plan0([], { backend: hangs, signal: controller.signal });
    const events: RunEvent[] = [];
    let next = await gen.next();
    for (; !next.done; next = await gen.next()) {
      events.push(next.value);
      if (next.value.type === "plan_delta") controller.abort();
    }
    expect(next.value).toMatchObject({
      ok: false,
      cancelled: true,
      code: "aborted",
      raw: "model_id = ",
    });
    expect(ofType(events, "plan_finish")[0]).toMatchObject({
      raw: "model_id = ",
      error: { code: "aborted" },
    });
  });

  it("leaves no unhandled rejection when the consumer is slow and the call fails", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const reply = {
        chunks: ["model_id ", "= [0"],
        failAfterChunks: 2,
        error: new LlmError("dropped"),
      };
      const gen = plan0([reply], { retry: { ...fastRetry, maxAttempts: 1 } });
      const events: RunEvent[] = [];
      for (let next = await gen.next(); !next.done; next = await gen.next()) {
        events.push(next.value);
        await flush();
      }
      await flush();
      expect(ofType(events, "plan_finish")[0]?.error?.code).toBe("dropped");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("does not mark a failed Conductor call's empty usage as estimated", async () => {
    const { events } = await drain(plan0([{ error: new LlmError("not_found", undefined, 404) }]));
    expect(ofType(events, "plan_finish")[0]?.usage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      estimated: false,
    });
    expect(recordOf(events).totals.estimated).toBe(false);
  });

  it("names the Conductor, not a worker, when its endpoint refuses the key", async () => {
    const { outcome, events } = await drain(
      plan0([{ error: new LlmError("auth", "Incorrect API key provided.", 401) }]),
    );
    expect(outcome).toMatchObject({ ok: false, code: "auth" });
    const message = outcome.ok ? "" : outcome.message;
    expect(message).toMatch(/^The Conductor's endpoint refused the API key/);
    // The server's own words stay; "this worker" goes.
    expect(message).toMatch(/Incorrect API key provided\.$/);
    expect(message).not.toMatch(/worker/);
    expect(ofType(events, "plan_finish")[0]?.error?.message).toBe(message);
  });
});
