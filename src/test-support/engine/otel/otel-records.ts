// Test support for the otel tests: run records built from realistic event logs. Not a test file.
import { recordOf } from "../../../engine/run/record.ts";
import * as ev from "../run/events.ts";
import type { RunEvent } from "../../../engine/schema/events.ts";
import type { RunRecord } from "../../../engine/schema/record.ts";
import type { Pool } from "../../../engine/schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../../../engine/schema/worker.ts";

export const QUESTION = "Is 391 a prime number?";
/** Secret values that must never reach a trace. */
export const SECRETS = ["sk-live-9f2c71d4e8a0", "Bearer hdr-secret-77ab", "tok-cond-5521"];

export const POOL: Pool = [
  WorkerSchema.parse({
    id: "gpt",
    name: "GPT-5",
    baseURL: "https://api.openai.com/v1",
    model: "gpt-5",
    headers: { "OpenAI-Organization": SECRETS[0] },
  }),
  WorkerSchema.parse({
    id: "claude",
    name: "Claude Sonnet 4",
    baseURL: "https://api.anthropic.com/v1/",
    model: "claude-sonnet-4",
    headers: { Authorization: SECRETS[1] },
  }),
  WorkerSchema.parse({ id: "self", name: "The Conductor itself", kind: "conductor" }),
];
export const CONDUCTOR = ConductorConfigSchema.parse({
  baseURL: "http://localhost:8000/v1",
  model: "conductor-7b",
  headers: { "X-Token": SECRETS[2] },
});

const planMessages = [
  { role: "system" as const, content: "You coordinate a team." },
  { role: "user" as const, content: `USER QUESTION:\n${QUESTION}\nEND OF USER QUESTION` },
];
export const RAW0 =
  'Two attempts, then a check.\nmodel_id = [0, 1]\nsubtasks = ["Factor 391.", "Check the factors and answer."]\naccess_list = [[], ["all"]]';
const RAW1 = "It holds.\nmodel_id = []\nsubtasks = []\naccess_list = []";
const steps = [
  { worker: "gpt", subtask: "Factor 391.", access: [] as number[] },
  { worker: "claude", subtask: "Check the factors and answer.", access: "all" as const },
];
const m0 = [{ role: "user" as const, content: "Your assigned subtask: Factor 391." }];
const m1 = [{ role: "user" as const, content: "Your assigned subtask: Check the factors." }];
const usage = (p: number, c: number, reasoningTokens?: number) => ({
  promptTokens: p,
  completionTokens: c,
  estimated: false,
  ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
});

/** The pool's worker ids as every plan's prompt showed them. */
const WORKER_IDS = ["gpt", "claude", "self"];
/** The first round's plan (round 0): RAW0, parsed into `steps`, finished at `at`, costing `cost`. */
const firstPlan = (at: number, cost: number) =>
  ev.planFinish(at, { raw: RAW0, usage: usage(300, 40), cost, steps, workerIds: WORKER_IDS });

const start = (runId: string, extra: Partial<Extract<RunEvent, { type: "run_start" }>> = {}) =>
  ({
    type: "run_start",
    at: 1_000,
    runId,
    question: QUESTION,
    pool: POOL,
    conductor: CONDUCTOR,
    maxSteps: 5,
    maxRounds: 1,
    ...extra,
  }) satisfies RunEvent;

/**
 * Two rounds: the plan is retried once (a 503), step 1 is retried once (a dropped connection)
 * and reasons, step 2 answers; round 2 accepts the answer.
 */
export function twoRoundRun(runId = "run-two-rounds"): RunRecord {
  const log: RunEvent[] = [
    start(runId),
    ev.planStart(1_010, { messages: planMessages }),
    ev.planRetry(1_050, {
      attempt: 2,
      of: 4,
      delayMs: 100,
      code: "server",
      status: 503,
      message: "The server failed (503).",
    }),
    ev.planStart(1_150, { messages: planMessages }),
    firstPlan(1_400, 0.0012),
    ev.roundStart(1_401, { steps }),
    { type: "step_queued", round: 0, step: 0 },
    { type: "step_queued", round: 0, step: 1 },
    ev.stepStart(1_410, { step: 0, attempt: 1, messages: m0 }),
    ev.stepRetry(1_500, {
      step: 0,
      attempt: 2,
      of: 4,
      delayMs: 200,
      code: "dropped",
      message: "The connection dropped.",
    }),
    ev.stepStart(1_700, { step: 0, attempt: 2, messages: m0 }),
    { type: "step_reasoning", round: 0, step: 0, text: "391 = 17 x 23, so not prime." },
    { type: "step_delta", round: 0, step: 0, text: "391 = 17 x 23." },
    ev.stepFinish(2_000, {
      step: 0,
      output: "391 = 17 x 23.",
      reasoning: "391 = 17 x 23, so not prime.",
      usage: usage(50, 30, 20),
      cost: 0.0004,
    }),
    ev.stepStart(2_001, { step: 1, attempt: 1, messages: m1 }),
    ev.stepFinish(2_300, {
      step: 1,
      output: "No, 391 = 17 x 23.",
      usage: usage(80, 10),
      cost: 0.0003,
    }),
    { type: "round_finish", at: 2_301, round: 0, answer: "No, 391 = 17 x 23." },
    ev.planStart(2_310, { round: 1, messages: planMessages }),
    ev.planFinish(2_500, {
      round: 1,
      raw: RAW1,
      usage: usage(400, 12),
      cost: 0.0015,
      steps: [],
      workerIds: WORKER_IDS,
    }),
    {
      type: "run_finish",
      at: 2_510,
      status: "done",
      reason: "accepted",
      answer: "No, 391 = 17 x 23.",
    },
  ];
  return recordOf(log);
}

/** One round whose second step fails for good (401) and whose run fails with it. */
export function failedRun(runId = "run-failed"): RunRecord {
  const log: RunEvent[] = [
    start(runId, { maxRounds: 0 }),
    ev.planStart(1_010, { messages: planMessages }),
    firstPlan(1_100, 0.001),
    ev.roundStart(1_101, { steps }),
    ev.stepStart(1_110, { step: 0, attempt: 1, messages: m0 }),
    ev.stepFinish(1_200, { step: 0, output: "17 x 23", usage: usage(50, 5), cost: 0 }),
    ev.stepStart(1_210, { step: 1, attempt: 1, messages: m1 }),
    {
      type: "step_error",
      at: 1_260,
      round: 0,
      step: 1,
      code: "auth",
      message: "The key was refused (401).",
    },
    { type: "round_finish", at: 1_261, round: 0, answer: null },
    {
      type: "run_finish",
      at: 1_270,
      status: "failed",
      reason: "step_error",
      answer: null,
      message: "Step 2 failed: the key was refused (401).",
    },
  ];
  return recordOf(log);
}

/** A plan that does not parse: the Conductor answered, the plan span fails with the parse error. */
export function badPlanRun(runId = "run-bad-plan"): RunRecord {
  return recordOf([
    start(runId, { maxRounds: 0 }),
    ev.planStart(1_010, { messages: planMessages }),
    ev.planFinish(1_100, {
      raw: "model_id = [7]",
      usage: usage(300, 8),
      cost: 0.001,
      error: { code: "missing_list", message: "The subtasks list is missing." },
    }),
    { type: "run_finish", at: 1_101, status: "failed", reason: "plan_error", answer: null },
  ]);
}
