import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ErrorCode } from "../errors.ts";
import { LlmError } from "../llm/types.ts";
import { exportRun, importRun } from "../run/export.ts";
import { recordOf } from "../run/record.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { Pool } from "../schema/worker.ts";
import { FALLBACK_SUBTASK, fallbackFor, planWithReplans } from "./fallback.ts";
import type { FallbackPolicy } from "./fallback.ts";
import { runConductor } from "./simple-runs.ts";
import { runRun } from "./runner.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const question = "What is 17 x 23?";
const pool: Pool = ["Alpha", "Beta"].map((name, i) =>
  WorkerSchema.parse({ id: `w${i}`, name, model: `model-${i}` }),
);
const conductor = ConductorConfigSchema.parse({ model: "conductor-7b" });
const retry = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 };
const GOOD = 'model_id = [1]\nsubtasks = ["Multiply 17 by 23."]\naccess_list = [[]]';
const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Multiply", "Check the';

/** The whole run (runConductor), or with `planOnly` the studio's Plan (runRun from a plan only). */
async function run(plans: FakeReply[], fallback?: FallbackPolicy, planOnly = false) {
  const conductorBackend = createFakeBackend(plans);
  const workerBackend = createFakeBackend(() => ({ text: "391" }));
  const o = {
    question,
    pool,
    conductor,
    conductorBackend,
    backendFor: () => workerBackend,
    signal: new AbortController().signal,
    retry,
    fallback,
  };
  const events = await drain(
    planOnly
      ? runRun({ ...o, run: { kind: "planned" }, start: { from: "plan", planOnly: true } })
      : runConductor(o),
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
    const plan = (plans: FakeReply[], fallback?: FallbackPolicy) => run(plans, fallback, true);
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

describe("asking the Conductor again (planWithReplans)", () => {
  const options = (backend: ReturnType<typeof createFakeBackend>, signal: AbortSignal) => ({
    backend,
    conductor,
    messages: [{ role: "user" as const, content: question }],
    workerIds: pool.map((w) => w.id),
    maxSteps: 3,
    round: 0,
    signal,
    retry,
    now: () => 42,
  });

  it("announces each new attempt at the run's clock, saying why, in the nested plan's place", async () => {
    const backend = createFakeBackend([{ text: TRUNCATED }, { text: TRUNCATED }, { text: GOOD }]);
    const parent = [{ round: 0, step: 1 }];
    const events = await drain(
      planWithReplans({ ...options(backend, new AbortController().signal), parent }, 2),
    );
    const retries = events.filter((e) => e.type === "plan_retry");
    expect(retries).toMatchObject([
      { at: 42, parent, attempt: 2, of: 3, delayMs: 0, code: "unparseable_list" },
      { at: 42, parent, attempt: 3, of: 3 },
    ]);
    // The message names what was wrong with the output, after saying what happens next.
    const failed = events.find((e) => e.type === "plan_finish" && e.error);
    const why = failed?.type === "plan_finish" ? (failed.error?.message ?? "") : "";
    expect(why).not.toBe("");
    const message = retries[0]?.type === "plan_retry" ? retries[0].message : "";
    expect(message).toMatch(/^Asking the Conductor again/);
    expect(message).toContain(why);
    expect(backend.calls).toHaveLength(3);
  });

  it("stops asking once the run is stopped after an output that did not parse", async () => {
    const backend = createFakeBackend([{ text: TRUNCATED }, { text: GOOD }]);
    const controller = new AbortController();
    const seen: string[] = [];
    const gen = planWithReplans(options(backend, controller.signal), 3);
    let step = await gen.next();
    for (; !step.done; step = await gen.next()) {
      seen.push(step.value.type);
      // The first plan came back unusable: the user stops the run before it is asked again.
      if (step.value.type === "plan_finish") controller.abort();
    }
    expect(step.value).toMatchObject({ ok: false, code: "unparseable_list" });
    expect(seen).not.toContain("plan_retry");
    expect(backend.calls).toHaveLength(1);
  });
});

describe("which plan failures a fallback worker answers (fallbackFor)", () => {
  const failure = (code: ErrorCode, cancelled = false) => ({
    code,
    message: `m ${code}`,
    cancelled,
  });

  it("answers with the named worker alone, with the whole question and why", () => {
    const only = [pool[1]!];
    const fell = fallbackFor({ workerId: "w1" }, only, failure("unparseable_list"));
    expect(fell).toEqual({
      steps: [{ worker: "w1", subtask: FALLBACK_SUBTASK, access: [] }],
      fallback: {
        worker: "w1",
        reason: { code: "unparseable_list", message: "m unparseable_list" },
      },
    });
    // The worker is told to answer the question itself, not some piece of it.
    expect(FALLBACK_SUBTASK).toMatch(/answer the question/i);
  });

  it.each([
    ["no fallback worker", undefined, failure("unparseable_list")],
    ["a policy that only re-plans", { replans: 2 }, failure("unparseable_list")],
    ["a cancelled plan", { workerId: "w0" }, failure("aborted", true)],
    ["the call budget spent", { workerId: "w0" }, failure("budget")],
    ["a worker gone from the pool", { workerId: "gone" }, failure("unparseable_list")],
  ])("does not apply to %s", (_name, policy, failed) => {
    expect(fallbackFor(policy, pool, failed)).toBeUndefined();
  });

  it("does not apply when only other workers remain in the pool", () => {
    expect(fallbackFor({ workerId: "w1" }, [pool[0]!], failure("network"))).toBeUndefined();
  });
});
