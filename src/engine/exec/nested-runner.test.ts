// nestedRunner on its own: what the nested Conductor is asked, the events a nested level emits,
// and what it returns to the step that ran it on each way it can end.
import { describe, expect, it } from "vitest";
import { buildConductorMessages, DEFAULT_SYSTEM_PROMPT } from "../conductor/prompt.ts";
import { ERROR_MESSAGES } from "../errors.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeBackend, FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import type { ChatRequest } from "../llm/types.ts";
import type { ParentPath, RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { Pool, Worker } from "../schema/worker.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { NestedResult } from "./execute.ts";
import { CallBudget } from "./execute.ts";
import { WORKER_PREAMBLE } from "./messages.ts";
import type { NestedContext } from "./nested.ts";
import { nestedRunner } from "./nested.ts";

const pool: Pool = [
  WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha", note: "fast" }),
  WorkerSchema.parse({ id: "self", name: "The Conductor itself", kind: "conductor" }),
];
const conductor = ConductorConfigSchema.parse({ model: "c", price: { input: 4, output: 8 } });
const TASK =
  "<overall_task>\nSort a list.\n</overall_task>\n\nYour assigned subtask: Sort it well.";
const STEP_MESSAGES: ChatMessage[] = [
  { role: "user", content: `${WORKER_PREAMBLE}\n\n${TASK}` },
  { role: "assistant", content: "Let's work through this step by step." },
];
const PARENT: ParentPath = [{ round: 0, step: 1 }];
const onePlan = (worker: number) =>
  `One step.\nmodel_id = [${worker}]\nsubtasks = ["Do it."]\naccess_list = [[]]`;
const userOf = (r: ChatRequest | undefined) =>
  r?.messages.find((m) => m.role === "user")?.content ?? "";

function context(
  conductorBackend: FakeBackend,
  workers: FakeBackend,
  extra: Partial<NestedContext> = {},
) {
  return {
    pool,
    conductor,
    conductorBackend,
    backendFor: (w: Worker) => (w.kind === "conductor" ? conductorBackend : workers),
    maxSteps: 3,
    maxDepth: 1,
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, timeoutMs: 0 },
    budget: new CallBudget(),
    now: () => 77,
    ...extra,
  } satisfies NestedContext;
}
async function runNested(
  ctx: NestedContext,
  messages = STEP_MESSAGES,
  depth = 1,
  signal?: AbortSignal,
) {
  const runner = nestedRunner(ctx, depth);
  if (!runner) throw new Error("no runner at this depth");
  const gen = runner({ messages, parent: PARENT, signal: signal ?? new AbortController().signal });
  const events: RunEvent[] = [];
  for (;;) {
    const next = await gen.next();
    if (next.done) return { events, result: next.value };
    events.push(next.value);
  }
}
const replies = (...r: FakeReply[]) => createFakeBackend(r);
/** A nested result that ended without an answer, with the standard message of its code. */
const ended = (
  status: "cancelled" | "failed",
  code: keyof typeof ERROR_MESSAGES,
): NestedResult => ({
  status,
  answer: null,
  code,
  message: ERROR_MESSAGES[code],
});

describe("nestedRunner", () => {
  it("exists up to the depth cap and not past it", () => {
    const ctx = context(replies(), replies(), { maxDepth: 2 });
    expect(nestedRunner(ctx, 1)).toBeDefined();
    expect(nestedRunner(ctx, 2)).toBeDefined();
    expect(nestedRunner(ctx, 3)).toBeUndefined();
  });

  it("asks the nested Conductor about the step's own task, with the run's prompt settings", async () => {
    const c = replies({ text: onePlan(0) });
    const prompt = {
      template: "Task: {{question}}\nTeam:\n{{workers}}\nAt most {{max_steps}} steps.",
      systemPrompt: "You plan nested work.",
      opening: "Here is the plan.",
      namedWorkers: true,
    };
    await runNested(context(c, replies({ text: "done" }), { prompt }));
    expect(c.calls[0]?.messages).toEqual(
      buildConductorMessages({
        question: TASK,
        pool,
        maxSteps: 3,
        continuesAssistant: true,
        ...prompt,
      }),
    );
    expect(userOf(c.calls[0])).toContain("Model id 0: Alpha — fast");
  });

  it("asks with the default prompt and anonymous workers when the run sets none", async () => {
    const c = createFakeBackend([{ text: onePlan(0) }], { continuesAssistant: false });
    await runNested(context(c, replies({ text: "done" })));
    expect(c.calls[0]?.messages).toEqual(
      buildConductorMessages({
        question: TASK,
        pool,
        maxSteps: 3,
        namedWorkers: false,
        continuesAssistant: false,
      }),
    );
    expect(c.calls[0]?.messages[0]?.content).toBe(DEFAULT_SYSTEM_PROMPT);
  });

  it("gives the nested workers the step's task as their question", async () => {
    const w = replies({ text: "Sorted." });
    await runNested(context(replies({ text: onePlan(0) }), w));
    const user = userOf(w.calls[0]);
    expect(user).toContain(TASK);
    expect(user.split(WORKER_PREAMBLE)).toHaveLength(2); // its own preamble, not the step's too
  });

  it("frames the nested workflow with a round_start and a round_finish, each under the step", async () => {
    const { events, result } = await runNested(
      context(replies({ text: onePlan(0) }), replies({ text: "Sorted." })),
    );
    const steps = [{ worker: "a", subtask: "Do it.", access: [] }];
    expect(events.find((e) => e.type === "round_start")).toEqual({
      type: "round_start",
      at: 77,
      round: 0,
      steps,
      parent: PARENT,
    });
    expect(events.at(-1)).toEqual({
      type: "round_finish",
      at: 77,
      round: 0,
      answer: "Sorted.",
      parent: PARENT,
    });
    for (const e of events) expect(e).toMatchObject({ parent: PARENT });
    expect(result).toEqual({ status: "done", answer: "Sorted." } satisfies NestedResult);
  });

  it("prices a Conductor step past the cap inside it at the Conductor's price", async () => {
    const c = createFakeBackend((r) =>
      userOf(r).includes("Your assigned subtask: Do it.")
        ? { text: "Deep answer." }
        : { text: onePlan(1) },
    );
    const { events } = await runNested(context(c, replies({ text: "unused" })));
    const finish = events.find((e) => e.type === "step_finish");
    expect(finish?.type === "step_finish" && finish.output).toBe("Deep answer.");
    const usage = finish?.type === "step_finish" ? finish.usage : undefined;
    expect(finish?.type === "step_finish" && finish.cost).toBeCloseTo(
      ((usage?.promptTokens ?? 0) * 4 + (usage?.completionTokens ?? 0) * 8) / 1_000_000,
      12,
    );
  });

  it("shares the run's call budget and retry policy", async () => {
    const budget = new CallBudget(6, 3);
    const w = createFakeBackend([
      { error: new LlmError("server", undefined, 500) },
      { text: "Second try." },
    ]);
    const ctx = context(replies({ text: onePlan(0) }), w, {
      budget,
      retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0, timeoutMs: 0 },
    });
    const { result } = await runNested(ctx);
    expect(result).toEqual({ status: "done", answer: "Second try." });
    expect(budget.used).toBe(6); // 3 before, the plan and two attempts
  });

  it("a plan that fails returns failed with the plan's code, saying the nested plan failed", async () => {
    const c = replies({ text: "No lists here." });
    const { result, events } = await runNested(context(c, replies()));
    expect(result).toMatchObject({ status: "failed", answer: null });
    const finish = events.find((e) => e.type === "plan_finish");
    const error = finish?.type === "plan_finish" ? finish.error : undefined;
    expect(result).toEqual({
      status: "failed",
      answer: null,
      code: error?.code,
      message: `The nested Conductor's plan failed: ${error?.message}`,
    });
    expect(events.some((e) => e.type === "round_start")).toBe(false);
  });

  it("a plan cut short by a cancel returns cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const { result } = await runNested(
      context(replies({ text: onePlan(0) }), replies()),
      STEP_MESSAGES,
      1,
      controller.signal,
    );
    expect(result).toMatchObject({ status: "cancelled", answer: null, code: "aborted" });
  });

  it("a workflow cancelled during its steps returns cancelled", async () => {
    const controller = new AbortController();
    const w = createFakeBackend(() => {
      controller.abort();
      return { text: "late" };
    });
    const { result } = await runNested(
      context(replies({ text: onePlan(0) }), w),
      STEP_MESSAGES,
      1,
      controller.signal,
    );
    expect(result).toEqual(ended("cancelled", "aborted"));
  });

  it("a workflow the budget stopped returns failed with code budget", async () => {
    const { result } = await runNested(
      context(replies({ text: onePlan(0) }), replies({ text: "x" }), { budget: new CallBudget(1) }),
    );
    expect(result).toEqual(ended("failed", "budget"));
  });

  it("a workflow whose step failed returns upstream_failed", async () => {
    const w = replies({ error: new LlmError("auth", undefined, 401) });
    const { result } = await runNested(context(replies({ text: onePlan(0) }), w));
    expect(result).toEqual({
      status: "failed",
      answer: null,
      code: "upstream_failed",
      message: "A step of the nested workflow failed.",
    });
  });

  it("plans for an empty question when the step's messages hold no user message", async () => {
    const c = replies({ text: onePlan(0) });
    await runNested(context(c, replies({ text: "ok" })), [{ role: "assistant", content: "Hi." }]);
    expect(c.calls[0]?.messages).toEqual(
      buildConductorMessages({
        question: "",
        pool,
        maxSteps: 3,
        namedWorkers: false,
        continuesAssistant: true,
      }),
    );
  });
});
