import { describe, expect, it } from "vitest";
import { buildPlanGrammar } from "../../conductor/grammar.ts";
import { DEFAULT_OPENING, buildConductorMessages, foldedOpening } from "../../conductor/prompt.ts";
import { planRound } from "../../exec/plan.ts";
import type { RunEvent } from "../../schema/events.ts";
import { WorkerSchema } from "../../schema/worker.ts";
import type { SmallEngine } from "./backend.ts";
import { createWebLLMBackend } from "./backend.ts";
import { MODEL, drain, fakeEngine, request } from "../../../test-support/webllm-engine-fake.ts";

describe("the plan grammar through the in-browser backend", () => {
  const POOL = { workerIds: ["a", "b", "c"], maxSteps: 4, round: 0 };
  const PLAN = `${DEFAULT_OPENING} One step.\nmodel_id = [1]\nsubtasks = ["Answer it."]\naccess_list = [[]]`;
  const folded = () =>
    buildConductorMessages({
      question: "What is 2 + 2?",
      pool: [
        { ...pool[0]!, id: "a" },
        { ...pool[0]!, id: "b" },
        { ...pool[0]!, id: "c" },
      ],
      maxSteps: 4,
      namedWorkers: false,
      continuesAssistant: false,
    });
  const pool = [WorkerSchema.parse({ id: "w", name: "W" })];

  async function plan(engine: SmallEngine, planGrammar: "webllm" | "off") {
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const gen = planRound({
      backend,
      conductor: { temperature: 0.2, maxTokens: 512, planGrammar },
      messages: folded(),
      ...POOL,
      signal: new AbortController().signal,
      retry: { maxAttempts: 1 },
    });
    const events: RunEvent[] = [];
    for (;;) {
      const next = await gen.next();
      if (next.done) return { outcome: next.value, events };
      events.push(next.value);
    }
  }

  it("on: the request carries the grammar, which starts with the opening instead of asking for it", async () => {
    const { engine, calls } = fakeEngine([{ chunks: [PLAN] }]);
    const { outcome } = await plan(engine, "webllm");
    expect(outcome.ok).toBe(true);
    const grammar = buildPlanGrammar({
      workers: 3,
      maxSteps: 4,
      round: 0,
      opening: DEFAULT_OPENING,
    });
    expect(calls[0]?.response_format).toEqual({ type: "grammar", grammar });
    const last = calls[0]?.messages.at(-1);
    expect(last?.role).toBe("user");
    expect(last?.content).not.toContain(foldedOpening(DEFAULT_OPENING));
    expect(last?.content).toMatch(/Model id 2$/);
  });

  it("off: no response_format, and the opening is asked for in the prompt as before", async () => {
    const { engine, calls } = fakeEngine([{ chunks: [PLAN] }]);
    await plan(engine, "off");
    expect(calls[0]).not.toHaveProperty("response_format");
    expect(calls[0]?.messages.at(-1)?.content).toContain(foldedOpening(DEFAULT_OPENING));
  });

  it("a grammar that fails to compile: the plan runs unconstrained and the plan says why", async () => {
    const { engine, calls } = fakeEngine([
      { rejectCreate: "Error: [FATAL] grammar_parser.cc:102: EBNF lexer error. Aborted()" },
      { chunks: [PLAN] },
    ]);
    const { outcome, events } = await plan(engine, "webllm");
    expect(outcome.ok).toBe(true);
    expect(calls).toHaveLength(2);
    expect(calls[1]).not.toHaveProperty("response_format");
    const finish = events.find((e) => e.type === "plan_finish");
    expect(finish).toMatchObject({ notice: expect.stringContaining("EBNF lexer error") as string });
    expect(finish && "notice" in finish ? finish.notice : "").toContain("written unconstrained");
  });

  it("knows its context window and counts tokens, calibrated on WebLLM's own counts", async () => {
    const { engine } = fakeEngine([
      { chunks: ["ok"], usage: { prompt_tokens: 600, completion_tokens: 1 } },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL, contextWindow: 8192 });
    expect(backend.contextWindow).toBe(8192);
    const long = request("x".repeat(2000));
    const guess = await backend.countTokens!(long.messages);
    await drain(backend.stream(long, new AbortController().signal));
    const calibrated = await backend.countTokens!(long.messages);
    expect(guess).toBeGreaterThan(calibrated);
    // WebLLM's count, with the counter's 5% margin on top: never under.
    expect(calibrated).toBeGreaterThanOrEqual(600);
    expect(calibrated).toBeLessThan(650);
    await backend.load(MODEL, { context_window_size: 16_384 });
    expect(backend.contextWindow).toBe(16_384);
  });
});
