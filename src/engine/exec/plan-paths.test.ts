// What planRound emits on each of its paths: nested scope, budget, an already-cancelled run,
// reasoning, retries, the in-browser grammar's fallback, and a prompt that cannot fit.
import { describe, expect, it, vi } from "vitest";
import { ERROR_MESSAGES } from "../errors.ts";
import { DEFAULT_OPENING, foldedOpening } from "../conductor/prompt.ts";
import { buildPlanGrammar } from "../conductor/grammar.ts";
import { buildRefinementMessage } from "../conductor/refine.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { FakeReply } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatBackend, ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { ChatMessage } from "../schema/usage.ts";
import { CallBudget } from "./execute.ts";
import { drain, ofType, planStarter } from "../../test-support/engine/exec/run-events.ts";

const LISTS = `model_id = [1, 0]\nsubtasks = ["Solve it.", "Check it."]\naccess_list = [[], [0]]`;
const PLAN = `Two steps.\n${LISTS}`;
const MESSAGES: ChatMessage[] = [
  { role: "system", content: "You coordinate." },
  { role: "user", content: `Plan for the question.\n\n${foldedOpening(DEFAULT_OPENING)}` },
];
const fastRetry = { baseDelayMs: 0, maxDelayMs: 0, timeoutMs: 0, random: () => 0 };
const tokens = (messages: ChatMessage[]) =>
  messages.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0);

const start = planStarter({
  conductor: { temperature: 0.2, maxTokens: 100, price: { input: 1, output: 1 } },
  messages: MESSAGES,
  workerIds: ["wa", "wb"],
  maxSteps: 3,
  round: 0,
  retry: fastRetry,
  now: () => 9,
});
/** A backend with a context window, counting a token per four characters. */
function windowed(
  script: FakeReply[] | ((r: ChatRequest) => FakeReply),
  contextWindow: number,
): ChatBackend & { calls: ChatRequest[] } {
  const base = createFakeBackend(script);
  return { ...base, calls: base.calls, contextWindow, countTokens: tokens };
}
const NO_USAGE = { promptTokens: 0, completionTokens: 0, estimated: false };

describe("planRound's events", () => {
  it("sends the prompt as it is when no plan grammar is set, and adds no notice", async () => {
    const backend = createFakeBackend([{ text: PLAN }]);
    const { events, outcome } = await drain(start(backend));
    expect(outcome.ok).toBe(true);
    expect(backend.calls).toEqual([
      { messages: MESSAGES, temperature: 0.2, maxTokens: 100, site: "r0.plan" },
    ]);
    expect(events.map((e) => e.type).filter((t) => t !== "plan_delta")).toEqual([
      "plan_start",
      "plan_finish",
    ]);
    expect(ofType(events, "plan_finish")[0]).not.toHaveProperty("notice");
    expect(ofType(events, "plan_finish")[0]).not.toHaveProperty("reasoning");
    // Nothing was left out of the prompt, so the start names no opening.
    expect(ofType(events, "plan_start")[0]).not.toHaveProperty("opening");
  });

  it("tags every event of a nested plan with its parent path", async () => {
    const parent = [{ round: 1, step: 2 }];
    const backend = createFakeBackend([{ reasoning: ["Hmm."], text: "x" }, { text: PLAN }]);
    const gen = start(backend, { parent, retry: { ...fastRetry, maxAttempts: 1 } });
    const { events } = await drain(gen);
    expect(events.length).toBeGreaterThan(2);
    for (const e of events) expect(e).toMatchObject({ parent });
  });

  it("takes its call from the budget, and a budget that refuses ends it with no text", async () => {
    const budget = new CallBudget(1);
    const backend = createFakeBackend([{ text: PLAN }]);
    expect((await drain(start(backend, { budget }))).outcome.ok).toBe(true);
    expect(budget.used).toBe(1);
    const { events, outcome } = await drain(start(backend, { budget }));
    expect(outcome).toEqual({
      ok: false,
      raw: "",
      cancelled: false,
      code: "budget",
      message: ERROR_MESSAGES.budget,
    });
    expect(ofType(events, "plan_finish")[0]).toMatchObject({ raw: "", usage: NO_USAGE, cost: 0 });
    expect(backend.calls).toHaveLength(1);
  });

  it("calls nothing when the run was cancelled before it planned", async () => {
    const controller = new AbortController();
    controller.abort();
    const backend = createFakeBackend([{ text: PLAN }]);
    const { outcome } = await drain(start(backend, { signal: controller.signal }));
    expect(outcome).toMatchObject({ ok: false, cancelled: true, code: "aborted" });
    expect(backend.calls).toEqual([]);
  });

  it("leaves no listener on the caller's signal once it has planned", async () => {
    const signal = new AbortController().signal;
    const add = vi.spyOn(signal, "addEventListener");
    const remove = vi.spyOn(signal, "removeEventListener");
    await drain(start(createFakeBackend([{ text: PLAN }]), { signal }));
    expect(add).toHaveBeenCalled();
    const removed = remove.mock.calls.map(([type, fn]) => [type, fn]);
    for (const [type, fn] of add.mock.calls) expect(removed).toContainEqual([type, fn]);
  });

  it("streams the Conductor's reasoning apart from the plan and keeps it on the finish", async () => {
    const backend = createFakeBackend([{ reasoning: ["Two workers. ", "Two steps."], text: PLAN }]);
    const { events, outcome } = await drain(start(backend));
    expect(ofType(events, "plan_reasoning")).toEqual([
      { type: "plan_reasoning", round: 0, text: "Two workers. " },
      { type: "plan_reasoning", round: 0, text: "Two steps." },
    ]);
    expect(ofType(events, "plan_finish")[0]).toMatchObject({
      raw: PLAN,
      reasoning: "Two workers. Two steps.",
    });
    expect(outcome.ok).toBe(true);
  });

  it("moves text a bare </think> shows was reasoning out of the plan", async () => {
    const backend = createFakeBackend([{ chunks: ["Thinking it over. ", "</think>", PLAN] }]);
    const { events, outcome } = await drain(start(backend));
    expect(ofType(events, "plan_reasoning")).toEqual([
      { type: "plan_reasoning", round: 0, text: "Thinking it over. ", reclassified: true },
    ]);
    expect(outcome).toMatchObject({ ok: true, raw: PLAN });
  });

  it("a plan that fails after such reasoning keeps only the plan's own text", async () => {
    const backend = createFakeBackend([
      {
        chunks: ["Thinking it over. ", "</think>", "model_id = "],
        failAfterChunks: 3,
        error: new LlmError("not_found", undefined, 404),
      },
    ]);
    const { outcome } = await drain(start(backend));
    expect(outcome).toMatchObject({ ok: false, code: "not_found", raw: "model_id = " });
  });

  it("reports a retry, then starts the text over with a fresh plan_start", async () => {
    const backend = createFakeBackend([
      { chunks: ["Half "], failAfterChunks: 1, error: new LlmError("server", undefined, 503) },
      { chunks: [PLAN] },
    ]);
    const { events } = await drain(start(backend));
    expect(events.map((e) => e.type)).toEqual([
      "plan_start",
      "plan_delta",
      "plan_retry",
      "plan_start",
      "plan_delta",
      "plan_finish",
    ]);
    expect(ofType(events, "plan_retry")[0]).toMatchObject({
      attempt: 2,
      code: "server",
      status: 503,
    });
  });

  it("a plan that does not parse ends with its usage, cost and the parse error", async () => {
    const text = 'model_id = [7]\nsubtasks = ["x"]\naccess_list = [[]]';
    const backend = createFakeBackend([
      { text, usage: { promptTokens: 10, completionTokens: 4, estimated: false } },
    ]);
    const { events, outcome } = await drain(start(backend));
    expect(outcome).toMatchObject({ ok: false, code: "bad_worker", raw: text });
    expect(ofType(events, "plan_finish")).toEqual([
      {
        type: "plan_finish",
        at: 9,
        round: 0,
        raw: text,
        usage: { promptTokens: 10, completionTokens: 4, estimated: false },
        cost: 14 / 1_000_000,
        error: { code: "bad_worker", message: outcome.ok ? "" : outcome.message },
      },
    ]);
  });
});

describe("repetition loops while streaming", () => {
  it("stops a loop that streams in large chunks", async () => {
    const chunk = "I will check the plan once more before I write it. ".repeat(6);
    const backend = createFakeBackend([{ chunks: Array<string>(2000).fill(chunk) }]);
    const { events, outcome } = await drain(start(backend));
    expect(outcome).toMatchObject({ ok: false, code: "repetition_loop" });
    expect(ofType(events, "plan_delta").length).toBeLessThan(20);
  });

  it("a loop that completes after the last check is found in the finished text", async () => {
    const unit = '"Solve", ';
    const head = `Plan.\nmodel_id = [0]\nsubtasks = [${unit.repeat(70)}`;
    const backend = createFakeBackend([{ chunks: [head, unit.repeat(25)] }]);
    const { outcome } = await drain(start(backend));
    expect(outcome).toMatchObject({ ok: false, code: "repetition_loop" });
    expect(outcome.ok ? "" : outcome.message).toContain("repeated 95 times");
  });
});

describe("the in-browser plan grammar's fallback", () => {
  const broken = (r: ChatRequest): FakeReply =>
    r.grammar !== undefined
      ? { error: new LlmError("grammar_failed", "EBNF lexer error.") }
      : { text: `${DEFAULT_OPENING} ${PLAN}` };
  const grammar = { temperature: 0.2, maxTokens: 100, planGrammar: "webllm" as const };

  it("plans unconstrained with the prompt as written, starting over, and says why", async () => {
    const backend = windowed(broken, 10_000);
    const { events, outcome } = await drain(start(backend, { conductor: grammar }));
    expect(outcome.ok).toBe(true);
    expect(backend.calls).toHaveLength(2);
    expect(backend.calls[0]?.grammar).toBeDefined();
    expect(backend.calls[1]).toEqual({
      messages: MESSAGES,
      temperature: 0.2,
      maxTokens: 100,
      site: "r0.plan",
    });
    const starts = ofType(events, "plan_start");
    expect(starts.map((s) => s.messages)).toEqual([backend.calls[0]?.messages, MESSAGES]);
    // The grammar's start names the opening its prompt lost; the plain one lost none.
    expect(starts[0]?.opening).toBe(DEFAULT_OPENING);
    expect(starts[1]).not.toHaveProperty("opening");
    expect(ofType(events, "plan_finish")[0]?.notice).toBe(
      `${ERROR_MESSAGES.grammar_failed} EBNF lexer error.`,
    );
  });

  it("a plain prompt that does not fit ends the plan as too long, saying so once", async () => {
    // The window holds the constrained prompt (no opening asked for) but not the plain one.
    const plainTokens = tokens(MESSAGES);
    const backend = windowed(broken, plainTokens + 100 - 1);
    const { events, outcome } = await drain(start(backend, { conductor: grammar }));
    expect(backend.calls).toHaveLength(1);
    expect(outcome).toMatchObject({ ok: false, code: "prompt_too_long", cancelled: false });
    const message = outcome.ok ? "" : outcome.message;
    expect(message.startsWith(ERROR_MESSAGES.prompt_too_long)).toBe(true);
    expect(message.split(ERROR_MESSAGES.prompt_too_long)).toHaveLength(2);
    expect(message).toContain("1 tokens over");
    // The same words as a plain plan that does not fit.
    const plain = await drain(start(windowed(broken, plainTokens + 100 - 1)));
    expect(plain.outcome).toMatchObject({ ok: false, code: "prompt_too_long", message });
    expect(ofType(events, "plan_finish")[0]?.notice).toContain("EBNF lexer error.");
  });

  it("plans without the context check when the token counter throws", async () => {
    const base = createFakeBackend([{ text: PLAN }]);
    const backend: ChatBackend & { calls: ChatRequest[] } = {
      ...base,
      calls: base.calls,
      contextWindow: 10,
      countTokens: () => Promise.reject(new Error("the tokenizer was disposed")),
    };
    const { events, outcome } = await drain(start(backend));
    expect(outcome.ok).toBe(true);
    expect(backend.calls.map((c) => c.messages)).toEqual([MESSAGES]);
    expect(ofType(events, "plan_finish")[0]?.error).toBeUndefined();
  });

  it("falls back on a backend that has a context window but no token counter", async () => {
    const base = createFakeBackend(broken);
    const backend: ChatBackend & { calls: ChatRequest[] } = {
      ...base,
      calls: base.calls,
      contextWindow: 10,
    };
    const { outcome } = await drain(start(backend, { conductor: grammar }));
    expect(outcome.ok).toBe(true);
    expect(backend.calls[1]?.messages).toEqual(MESSAGES);
  });

  it("a budget that refuses the unconstrained call ends the plan with no text", async () => {
    const backend = windowed(broken, 10_000);
    const { outcome } = await drain(
      start(backend, { conductor: grammar, budget: new CallBudget(1) }),
    );
    expect(outcome).toMatchObject({ ok: false, code: "budget", raw: "" });
  });

  it("notes both a shortened answer and the grammar problem, one after the other", async () => {
    const answer = `${"The first half of a long answer. ".repeat(60)}${"And the end. ".repeat(60)}`;
    const messages: ChatMessage[] = [
      MESSAGES[0]!,
      { role: "user", content: "Plan it." },
      { role: "assistant", content: PLAN },
      {
        role: "user",
        content: `${buildRefinementMessage(answer, 1)}\n\n${foldedOpening(DEFAULT_OPENING)}`,
      },
    ];
    const backend = windowed(broken, 700);
    const { events } = await drain(start(backend, { conductor: grammar, messages, round: 1 }));
    const notice = ofType(events, "plan_finish")[0]?.notice ?? "";
    expect(notice).toMatch(
      /^The carried answer was shortened by [\d,]+ characters .*\. The plan grammar/,
    );
  });
});

describe("the opening a plan grammar leaves out of the prompt", () => {
  const grammar = { temperature: 0.2, maxTokens: 100, planGrammar: "vllm" as const };
  const asked = MESSAGES.at(-1)!;
  const sent = [MESSAGES[0]!, { ...asked, content: "Plan for the question." }];

  it("is named on every start of the plan, a retry's too, beside the messages as sent", async () => {
    const backend = createFakeBackend([
      { chunks: ["Half "], failAfterChunks: 1, error: new LlmError("server", undefined, 503) },
      { chunks: [`${DEFAULT_OPENING} ${PLAN}`] },
    ]);
    const { events } = await drain(start(backend, { conductor: grammar }));
    expect(backend.calls.map((c) => c.messages)).toEqual([sent, sent]);
    // The grammar writes that opening itself, for this pool, step cap and round.
    const built = buildPlanGrammar({ workers: 2, maxSteps: 3, round: 0, opening: DEFAULT_OPENING });
    expect(backend.calls[0]?.extraBody).toEqual({ structured_outputs: { grammar: built } });
    expect(ofType(events, "plan_start")).toEqual([
      { type: "plan_start", at: 9, round: 0, messages: sent, opening: DEFAULT_OPENING },
      { type: "plan_start", at: 9, round: 0, messages: sent, opening: DEFAULT_OPENING },
    ]);
  });

  it("is named on the start of a plan that does not fit, which never calls", async () => {
    const backend = windowed([{ text: PLAN }], 50);
    const { events } = await drain(
      start(backend, { conductor: grammar, parent: [{ round: 0, step: 1 }] }),
    );
    expect(backend.calls).toEqual([]);
    const parent = [{ round: 0, step: 1 }];
    expect(events.map((e) => e.type)).toEqual(["plan_start", "plan_finish"]);
    expect(events[0]).toEqual({
      type: "plan_start",
      parent,
      at: 9,
      round: 0,
      messages: sent,
      opening: DEFAULT_OPENING,
    });
    expect(events[1]).toMatchObject({
      type: "plan_finish",
      parent,
      error: { code: "prompt_too_long" },
    });
  });

  it("is not named where the model continues the opening as an assistant message", async () => {
    const continued: ChatMessage[] = [
      MESSAGES[0]!,
      { role: "user", content: "Plan for the question." },
      { role: "assistant", content: DEFAULT_OPENING },
    ];
    const backend = createFakeBackend([{ text: PLAN }]);
    const { events } = await drain(start(backend, { conductor: grammar, messages: continued }));
    expect(backend.calls[0]?.messages).toEqual(continued);
    expect(ofType(events, "plan_start")[0]).not.toHaveProperty("opening");
  });
});

describe("a prompt that does not fit the context window", () => {
  it("ends before any call with a plan_start and a plan_finish that carries the error", async () => {
    const backend = windowed([{ text: PLAN }], 50);
    const { events, outcome } = await drain(start(backend));
    expect(backend.calls).toEqual([]);
    const error = { code: "prompt_too_long", message: outcome.ok ? "" : outcome.message };
    expect(outcome).toEqual({ ok: false, raw: "", cancelled: false, ...error });
    expect(events).toEqual([
      { type: "plan_start", at: 9, round: 0, messages: MESSAGES },
      { type: "plan_finish", at: 9, round: 0, raw: "", usage: NO_USAGE, cost: 0, error },
    ]);
  });

  it("a prompt that fits without shortening carries no notice", async () => {
    const { events } = await drain(start(windowed([{ text: PLAN }], 10_000)));
    expect(ofType(events, "plan_finish")[0]).not.toHaveProperty("notice");
  });

  it("a backend with a context window but no token counter plans without fitting", async () => {
    const base = createFakeBackend([{ text: PLAN }]);
    const backend: ChatBackend = { ...base, contextWindow: 10 };
    const { outcome } = await drain(start(backend));
    expect(outcome.ok).toBe(true);
  });
});
