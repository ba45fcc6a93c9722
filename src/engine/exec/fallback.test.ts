import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../llm/fake.ts";
import type { FakeReply } from "../llm/fake.ts";
import { LlmError } from "../llm/types.ts";
import { exportRun, importRun } from "../run/export.ts";
import { recordOf } from "../run/record.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { Pool } from "../schema/worker.ts";
import { FALLBACK_SUBTASK } from "./fallback.ts";
import type { FallbackPolicy } from "./fallback.ts";
import { runConductor } from "./simple-runs.ts";
import { runRun } from "./runner.ts";
import { drain } from "./testing.ts";

const question = "What is 17 x 23?";
const pool: Pool = ["Alpha", "Beta"].map((name, i) =>
  WorkerSchema.parse({ id: `w${i}`, name, model: `model-${i}` }),
);
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });
const retry = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 };
const GOOD = 'model_id = [1]\nsubtasks = ["Multiply 17 by 23."]\naccess_list = [[]]';
const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Multiply", "Check the';

async function run(plans: FakeReply[], fallback?: FallbackPolicy) {
  const conductorBackend = createFakeBackend(plans);
  const workerBackend = createFakeBackend(() => ({ text: "391" }));
  const events = await drain(
    runConductor({
      question,
      pool,
      conductor,
      conductorBackend,
      backendFor: () => workerBackend,
      signal: new AbortController().signal,
      retry,
      fallback,
    }),
  );
  return { record: recordOf(events), events, conductorBackend, workerBackend };
}

describe("when the Conductor cannot plan", () => {
  it("asks once more when its output does not parse, keeping the rejected output", async () => {
    const { record, conductorBackend, events } = await run([{ text: TRUNCATED }, { text: GOOD }], {
      replans: 1,
    });
    expect(conductorBackend.calls).toHaveLength(2);
    expect(record.status).toBe("done");
    expect(record.rounds[0]?.plan?.raw).toBe(GOOD);
    expect(record.rounds[0]?.plan?.rejected).toMatchObject([
      { raw: TRUNCATED, error: { code: "unparseable_list" }, usage: { completionTokens: 13 } },
    ]);
    expect(events.find((e) => e.type === "plan_retry")).toMatchObject({
      code: "unparseable_list",
      attempt: 2,
      of: 2,
    });
    // Both plans' tokens count.
    expect(record.totals.calls).toBe(3);
  });

  it("does not ask again by default, nor after a failed call (a refused key)", async () => {
    expect((await run([{ text: TRUNCATED }, { text: GOOD }])).record.endReason).toBe("plan_error");
    const refused = await run([{ error: new LlmError("auth") }, { text: GOOD }], { replans: 1 });
    expect(refused.conductorBackend.calls).toHaveLength(1);
    expect(refused.record.endReason).toBe("plan_error");
  });

  it("lets the named worker answer alone, recorded as a fallback", async () => {
    const { record, workerBackend } = await run([{ text: TRUNCATED }], {
      replans: 1,
      workerId: "w1",
    });
    expect(record.status).toBe("done");
    expect(record.answer).toBe("391");
    const round = record.rounds[0];
    expect(round?.fallback).toMatchObject({ worker: "w1", reason: { code: "unparseable_list" } });
    expect(round?.lists).toBeNull();
    expect(round?.steps).toMatchObject([
      { worker: "w1", workerName: "Beta", subtask: FALLBACK_SUBTASK, access: [] },
    ]);
    expect(workerBackend.calls).toHaveLength(1);
    // The worker sees the question itself.
    expect(workerBackend.calls[0]?.messages[0]?.content).toContain(question);
    // The fallback survives an export round trip.
    const back = importRun(exportRun(record));
    expect(back.ok && back.record.rounds[0]?.fallback?.worker).toBe("w1");
  });

  it("planning alone (the studio's Plan) falls back too, and then runs the named worker", async () => {
    const plan = (plans: FakeReply[], fallback?: FallbackPolicy) => {
      const conductorBackend = createFakeBackend(plans);
      const workerBackend = createFakeBackend(() => ({ text: "391" }));
      const events = drain(
        runRun({
          question,
          pool,
          conductor,
          conductorBackend,
          backendFor: () => workerBackend,
          signal: new AbortController().signal,
          retry,
          fallback,
          run: { kind: "planned" },
          start: { from: "plan", planOnly: true },
        }),
      );
      return events.then((e) => ({ record: recordOf(e), conductorBackend, workerBackend }));
    };
    const fell = await plan([{ text: TRUNCATED }, { text: TRUNCATED }], {
      replans: 1,
      workerId: "w1",
    });
    // The engine's own re-plan first, then the worker.
    expect(fell.conductorBackend.calls).toHaveLength(2);
    expect(fell.workerBackend.calls).toHaveLength(1);
    expect(fell.record).toMatchObject({ status: "done", answer: "391" });
    expect(fell.record.rounds[0]?.fallback).toMatchObject({
      worker: "w1",
      reason: { code: "unparseable_list" },
    });
    // Without a fallback worker, planning alone still ends on the failure, nothing run.
    const failed = await plan([{ text: TRUNCATED }, { text: TRUNCATED }], { replans: 1 });
    expect(failed.record).toMatchObject({ status: "failed", endReason: "plan_error" });
    expect(failed.workerBackend.calls).toHaveLength(0);
    // A plan that parses is only planned, whatever the fallback.
    const planned = await plan([{ text: GOOD }], { replans: 1, workerId: "w1" });
    expect(planned.record.status).toBe("planned");
    expect(planned.workerBackend.calls).toHaveLength(0);
  });

  it("falls back after a failed Conductor call too, but never after a cancel", async () => {
    const down = await run([{ error: new LlmError("network") }], { workerId: "w0" });
    expect(down.record.rounds[0]?.fallback?.reason.code).toBe("network");
    expect(down.record.answer).toBe("391");
    const controller = new AbortController();
    controller.abort();
    const events = await drain(
      runConductor({
        question,
        pool,
        conductor,
        conductorBackend: createFakeBackend([{ text: GOOD }]),
        backendFor: () => createFakeBackend([{ text: "391" }]),
        signal: controller.signal,
        retry,
        fallback: { workerId: "w0" },
      }),
    );
    expect(recordOf(events).status).toBe("cancelled");
  });
});
