import { describe, expect, it } from "vitest";
import { ENDING_TEXT } from "../errors.ts";
import { buildConductorMessages } from "../conductor/prompt.ts";
import { buildRefinementMessage } from "../conductor/refine.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeBackend, FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import type { Pool } from "../schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import { buildWorkerMessages } from "./messages.ts";
import type { RunOptions } from "./simple-runs.ts";
import { runConductor } from "./simple-runs.ts";
import { ofType } from "../../test-support/engine/exec/run-events.ts";
import { answerFor, subtaskOf } from "../../test-support/engine/exec/subtask.ts";

const question = "Is 391 a prime number? Answer yes or no with a reason.";
const pool: Pool = ["Alpha", "Beta", "Gamma"].map((name, i) =>
  WorkerSchema.parse({ id: `w${i}`, name, model: `model-${i}` }),
);
const conductor = ConductorConfigSchema.parse({
  model: "conductor-7b",
  temperature: 0.1,
  maxTokens: 900,
});
const fastRetry = { baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 0, random: () => 0.5 };

const plan0 = ` Primality needs care, so two models check it independently and a third compares.
model_id = [0, 1, 2]
subtasks = ["Decide whether 391 is prime by trial division.", "Try to factor 391.", "Compare both answers and say whether 391 is prime."]
access_list = [[], [], ["all"]]`;
const steps0: Step[] = [
  { worker: "w0", subtask: "Decide whether 391 is prime by trial division.", access: [] },
  { worker: "w1", subtask: "Try to factor 391.", access: [] },
  { worker: "w2", subtask: "Compare both answers and say whether 391 is prime.", access: "all" },
];
const accept =
  "The answer is correct and complete.\nmodel_id = []\nsubtasks = []\naccess_list = []";
const verifyAlone = `One more check is worth it.
model_id = [1]
subtasks = ["Verify that 391 = 17 x 23 and give the final answer."]
access_list = [[]]`;
const verifyWithAll = `Check it again, with the previous round in view.
model_id = [0, 2]
subtasks = ["Multiply 17 by 23.", "Give the final answer."]
access_list = [[], ["all"]]`;

function workers(replies: Record<string, FakeReply> = {}): FakeBackend {
  return createFakeBackend((r) => replies[subtaskOf(r)] ?? { text: answerFor(subtaskOf(r)) });
}
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
async function drain<R>(
  gen: AsyncGenerator<RunEvent, R>,
  onEvent?: (e: RunEvent) => void,
): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const e of gen) {
    events.push(e);
    onEvent?.(e);
  }
  return events;
}
function run(
  conductorReplies: FakeReply[],
  w: FakeBackend,
  extra: Partial<RunOptions> = {},
  continuesAssistant = true,
) {
  const conductorBackend = createFakeBackend(conductorReplies, { continuesAssistant });
  const gen = runConductor({
    question,
    pool,
    conductor,
    conductorBackend,
    backendFor: () => w,
    signal: new AbortController().signal,
    retry: fastRetry,
    runId: "run-test",
    now: () => 5000,
    ...extra,
  });
  return { gen, conductorBackend };
}
function finish(events: RunEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "run_finish") throw new Error("the run did not end with run_finish");
  return last;
}
/** The event types with runs of the same type collapsed, e.g. plan_delta x 12 -> one. */
function shape(events: RunEvent[]): string[] {
  return events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
}

describe("runConductor", () => {
  it("plans, runs the workflow and finishes with the last step's answer", async () => {
    const w = workers();
    const { gen, conductorBackend } = run([{ text: plan0 }], w);
    const events = await drain(gen);
    expect(shape(events).slice(0, 6)).toEqual([
      "run_start",
      "plan_start",
      "plan_delta",
      "plan_finish",
      "round_start",
      "step_queued",
    ]);
    expect(events.slice(-2).map((e) => e.type)).toEqual(["round_finish", "run_finish"]);
    expect(events[0]).toMatchObject({
      type: "run_start",
      runId: "run-test",
      question,
      pool,
      conductor,
      maxSteps: 5,
      maxRounds: 0,
    });
    const expectedMessages = buildConductorMessages({
      question,
      pool,
      maxSteps: 5,
      namedWorkers: false,
      continuesAssistant: true,
    });
    expect(ofType(events, "plan_start")[0]?.messages).toEqual(expectedMessages);
    expect(conductorBackend.calls).toEqual([
      { messages: expectedMessages, temperature: 0.1, maxTokens: 900, site: "r0.plan" },
    ]);
    expect(
      ofType(events, "plan_delta")
        .map((d) => d.text)
        .join(""),
    ).toBe(plan0);
    expect(ofType(events, "plan_finish")[0]).toMatchObject({ raw: plan0, steps: steps0 });
    expect(ofType(events, "round_start")[0]).toMatchObject({ round: 0, steps: steps0 });
    expect(
      ofType(events, "step_finish")
        .map((f) => f.step)
        .sort(),
    ).toEqual([0, 1, 2]);
    const final = answerFor(steps0[2]?.subtask ?? "");
    expect(ofType(events, "round_finish")[0]).toMatchObject({ round: 0, answer: final });
    expect(finish(events)).toMatchObject({ status: "done", reason: "no_rounds", answer: final });
    expect(w.calls).toHaveLength(3);
  });

  it("ends with plan_error, keeping the raw text, when the plan does not parse", async () => {
    const bad =
      'I would use model 0.\nmodel_id = [0, 1]\nsubtasks = ["Only one subtask."]\naccess_list = [[], []]';
    const w = workers();
    const events = await drain(run([{ text: bad }], w).gen);
    const plan = ofType(events, "plan_finish")[0];
    expect(plan?.raw).toBe(bad);
    expect(plan?.steps).toBeUndefined();
    expect(plan?.error?.code).toBe("length_mismatch");
    expect(finish(events)).toMatchObject({ status: "failed", reason: "plan_error", answer: null });
    expect(finish(events).message).toBe(plan?.error?.message);
    expect(events.some((e) => e.type === "round_start")).toBe(false);
    expect(w.calls).toHaveLength(0);
    expect(recordOf(events).rounds[0]?.plan?.raw).toBe(bad);
  });

  it("ends with plan_error when the Conductor endpoint refuses the key, without retrying", async () => {
    const { gen, conductorBackend } = run(
      [{ error: new LlmError("auth", undefined, 401) }],
      workers(),
    );
    const events = await drain(gen);
    expect(ofType(events, "plan_finish")[0]?.error?.code).toBe("auth");
    expect(finish(events)).toMatchObject({ status: "failed", reason: "plan_error" });
    expect(finish(events).message).toContain("401");
    expect(conductorBackend.calls).toHaveLength(1);
  });

  it("retries the Conductor call and keeps only the final attempt's raw text", async () => {
    const replies: FakeReply[] = [
      { chunks: ["Half a plan "], failAfterChunks: 1, error: new LlmError("dropped") },
      { text: plan0 },
    ];
    const events = await drain(run(replies, workers()).gen);
    expect(ofType(events, "plan_start")).toHaveLength(2);
    expect(finish(events).status).toBe("done");
    expect(recordOf(events).rounds[0]?.plan?.raw).toBe(plan0);
  });

  it("accepts the first answer when the refinement round writes three empty lists", async () => {
    const { gen, conductorBackend } = run([{ text: plan0 }, { text: accept }], workers(), {
      maxRounds: 1,
    });
    const events = await drain(gen);
    const first = ofType(events, "round_finish")[0]?.answer;
    expect(first).toBe(answerFor(steps0[2]?.subtask ?? ""));
    expect(finish(events)).toMatchObject({ status: "done", reason: "accepted", answer: first });
    expect(ofType(events, "round_start")).toHaveLength(1);
    expect(conductorBackend.calls).toHaveLength(2);
    expect(recordOf(events).rounds[1]?.accepted).toBe(true);
  });

  it("takes the second round's answer when it verifies, and ends at the round cap", async () => {
    const w = workers();
    const { gen, conductorBackend } = run(
      [{ text: plan0 }, { text: verifyAlone }],
      w,
      { maxRounds: 1 },
      false,
    );
    const events = await drain(gen);
    const answers = ofType(events, "round_finish").map((r) => r.answer);
    expect(answers).toEqual([
      answerFor(steps0[2]?.subtask ?? ""),
      answerFor("Verify that 391 = 17 x 23 and give the final answer."),
    ]);
    expect(finish(events)).toMatchObject({
      status: "done",
      reason: "round_cap",
      answer: answers[1],
    });
    // The round-1 plan conversation holds the first completion and the round-0 answer.
    const second = ofType(events, "plan_start")[1]?.messages ?? [];
    expect(conductorBackend.calls[1]?.messages).toEqual(second);
    expect(second).toContainEqual({ role: "assistant", content: plan0 });
    expect(
      second.some(
        (m) => m.role === "user" && m.content.includes(buildRefinementMessage(answers[0] ?? "", 1)),
      ),
    ).toBe(true);
    // No step of round 1 has "all": its worker sees no previous-round block.
    const round1 = w.calls.slice(3);
    expect(round1).toHaveLength(1);
    expect(round1[0]?.messages[0]?.content).not.toContain("Previous round");
  });

  it('shows the previous round to every round-1 worker when a round-1 step has "all"', async () => {
    const w = workers();
    const events = await drain(
      run([{ text: plan0 }, { text: verifyWithAll }], w, { maxRounds: 1 }).gen,
    );
    expect(finish(events).reason).toBe("round_cap");
    const previousRound = steps0.map((s) => ({
      worker: s.worker,
      subtask: s.subtask,
      output: answerFor(s.subtask),
    }));
    const steps1 = ofType(events, "round_start")[1]?.steps ?? [];
    const outputs = [answerFor("Multiply 17 by 23.")];
    const starts = ofType(events, "step_start")
      .filter((s) => s.round === 1)
      .sort((a, b) => a.step - b.step);
    expect(starts.map((s) => s.messages)).toEqual(
      [0, 1].map((index) =>
        buildWorkerMessages({
          question,
          steps: steps1,
          workerIds: pool.map((p) => p.id),
          index,
          outputs,
          previousRound,
        }),
      ),
    );
    for (const s of starts)
      expect(s.messages[0]?.content).toContain("<Previous round Agent 1 response>");
  });

  it("stops with reason budget when the call cap is reached in the first round", async () => {
    const w = workers();
    const events = await drain(run([{ text: plan0 }], w, { maxCalls: 3 }).gen);
    expect(finish(events)).toMatchObject({ status: "failed", reason: "budget", answer: null });
    expect(w.calls).toHaveLength(2);
  });

  it("keeps the first round's answer as done when the budget stops a refinement round", async () => {
    const first = answerFor(steps0[2]?.subtask ?? "");
    const atPlan = await drain(
      run([{ text: plan0 }, { text: verifyAlone }], workers(), { maxRounds: 1, maxCalls: 4 }).gen,
    );
    expect(finish(atPlan)).toMatchObject({ status: "done", reason: "budget", answer: first });
    const atStep = await drain(
      run([{ text: plan0 }, { text: verifyAlone }], workers(), { maxRounds: 1, maxCalls: 5 }).gen,
    );
    expect(finish(atStep)).toMatchObject({ status: "done", reason: "budget", answer: first });
  });

  it("cancels while planning", async () => {
    const controller = new AbortController();
    const g = gate();
    const w = workers();
    const events = await drain(
      run([{ text: plan0, gate: g.promise }], w, { signal: controller.signal }).gen,
      (e) => {
        if (e.type === "plan_start") controller.abort();
      },
    );
    expect(finish(events)).toMatchObject({ status: "cancelled", reason: "cancelled" });
    expect(w.calls).toHaveLength(0);
  });

  it("ends a run whose worker fails as a step error, not as an exhausted budget", async () => {
    const w = workers({ "Try to factor 391.": { error: new LlmError("auth", undefined, 401) } });
    const events = await drain(run([{ text: plan0 }], w, { maxCalls: 100 }).gen);
    expect(finish(events)).toEqual({
      type: "run_finish",
      at: 5000,
      status: "failed",
      reason: "step_error",
      answer: null,
      message: ENDING_TEXT.step_error,
    });
  });
});

describe("the plain entries to the one runner", () => {
  it("runConductor starts a planned run under the given id", async () => {
    const events = await drain(run([{ text: plan0 }, { text: accept }], workers()).gen);
    expect(events[0]).toMatchObject({ type: "run_start", runId: "run-test", kind: "planned" });
  });
});
