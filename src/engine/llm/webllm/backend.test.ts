/* eslint-disable @typescript-eslint/only-throw-error, @typescript-eslint/prefer-promise-reject-errors --
   WebLLM's worker rejects with strings, and the fake engine must do the same. */
import { describe, expect, it, vi } from "vitest";
import type { ChatMessage } from "../../schema/usage.ts";
import type { ChatChunk } from "../types.ts";
import { LlmError, collect } from "../types.ts";
import type { SmallChatRequest, SmallChunk, SmallEngine, SmallUsage } from "./backend.ts";
import { createWebLLMBackend } from "./backend.ts";
import { buildPlanGrammar } from "../../conductor/grammar.ts";
import { DEFAULT_OPENING, buildConductorMessages, foldedOpening } from "../../conductor/prompt.ts";
import { planRound } from "../../exec/plan.ts";
import type { RunEvent } from "../../schema/events.ts";
import { WorkerSchema } from "../../schema/worker.ts";

interface Reply {
  chunks?: string[];
  usage?: SmallUsage | null;
  /** Held before the first chunk (a long prefill) until resolved. */
  gate?: Promise<void>;
  /** Thrown (as a string, like the worker) after this many chunks. */
  failAfter?: number;
  failWith?: string;
  /** Rejects `create` itself with this string. */
  rejectCreate?: string;
}

const MODEL = "Qwen2.5-7B-Instruct-q4f16_1-MLC";
const USAGE: SmallUsage = {
  prompt_tokens: 120,
  completion_tokens: 3,
  extra: {
    prefill_tokens_per_s: 850.5,
    decode_tokens_per_s: 31.2,
    time_to_first_token_s: 0.14,
    e2e_latency_s: 0.3,
  },
};

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A fake of the small engine whose chunks are shaped like WebLLM's. */
function fakeEngine(replies: Reply[]) {
  const calls: SmallChatRequest[] = [];
  const state = { interrupts: 0, active: 0, maxActive: 0, closed: 0, interruptFlag: false };
  const reload = vi.fn((_id: string) => Promise.resolve());
  const unload = vi.fn(() => Promise.resolve());

  async function* generate(reply: Reply): AsyncGenerator<SmallChunk> {
    state.active += 1;
    state.maxActive = Math.max(state.maxActive, state.active);
    state.interruptFlag = false; // WebLLM resets its interrupt flag when a generation starts
    try {
      if (reply.gate) await reply.gate;
      let finish = "stop";
      for (const [i, text] of (reply.chunks ?? []).entries()) {
        if (reply.failAfter === i) throw reply.failWith ?? "Error: boom";
        if (state.interruptFlag) {
          finish = "abort";
          break;
        }
        // Shaped like WebLLM's chunk, extra fields included (a variable skips excess-property checks).
        const chunk = {
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          model: MODEL,
          choices: [{ delta: { content: text, role: "assistant" }, finish_reason: null, index: 0 }],
        };
        yield chunk;
      }
      if (reply.failAfter !== undefined && reply.failAfter >= (reply.chunks ?? []).length) {
        throw reply.failWith ?? "Error: boom";
      }
      yield { choices: [{ delta: {}, finish_reason: finish }] };
      const usageChunk = {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        choices: [],
        usage: reply.usage ?? USAGE,
      };
      if (reply.usage !== null) yield usageChunk;
    } finally {
      state.active -= 1;
      state.closed += 1;
    }
  }

  const engine: SmallEngine = {
    chat: {
      completions: {
        create(request) {
          calls.push(request);
          const reply = replies.shift() ?? { chunks: ["ok"] };
          if (reply.rejectCreate) return Promise.reject(reply.rejectCreate);
          return Promise.resolve(generate(reply));
        },
      },
    },
    interruptGenerate() {
      state.interrupts += 1;
      state.interruptFlag = true;
    },
    reload,
    unload,
    runtimeStatsText: () => Promise.resolve("prefill: 850.5 tok/s, decode: 31.2 tok/s"),
  };
  return { engine, calls, state, reload, unload };
}

const user = (content: string): ChatMessage[] => [
  { role: "system", content: "You coordinate." },
  { role: "user", content },
];
const request = (content = "Q?") => ({
  messages: user(content),
  temperature: 0.2,
  maxTokens: 1024,
});

async function drain(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (e: unknown) {
    if (e instanceof LlmError) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

/** Lets queued promise callbacks run. */
const tick = () => new Promise((r) => setTimeout(r, 0));

describe("createWebLLMBackend", () => {
  it("streams deltas, then usage from WebLLM's final chunk, and reports its speed figures", async () => {
    const { engine, calls } = fakeEngine([{ chunks: ["model_id", " = [0]", ""] }]);
    const onStats = vi.fn();
    const backend = createWebLLMBackend(engine, { modelId: MODEL, onStats });
    expect(backend.continuesAssistant).toBe(false);
    expect(backend.label).toBe(`${MODEL} (in this browser)`);

    const chunks = await drain(backend.stream(request(), new AbortController().signal));
    expect(chunks).toEqual([
      { type: "delta", text: "model_id" },
      { type: "delta", text: " = [0]" },
      { type: "usage", usage: { promptTokens: 120, completionTokens: 3, estimated: false } },
    ]);
    expect(calls[0]).toEqual({
      messages: user("Q?"),
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 1024,
    });
    expect(onStats).toHaveBeenCalledWith({
      prefillTokensPerSec: 850.5,
      decodeTokensPerSec: 31.2,
      timeToFirstTokenSec: 0.14,
    });
    expect(backend.lastStats?.decodeTokensPerSec).toBe(31.2);
    expect(await backend.runtimeStats()).toMatch(/decode/);
  });

  it("estimates usage when no usage chunk arrives, and omits max_tokens when 0", async () => {
    const { engine, calls } = fakeEngine([{ chunks: ["abcdefgh"], usage: null }]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const { text, usage } = await collect(
      backend,
      { ...request(), maxTokens: 0 },
      new AbortController().signal,
    );
    expect(text).toBe("abcdefgh");
    expect(usage).toMatchObject({ completionTokens: 2, estimated: true });
    expect(calls[0]).not.toHaveProperty("max_tokens");
  });

  it("refuses a trailing assistant message without calling the engine", async () => {
    const { engine, calls } = fakeEngine([]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const messages: ChatMessage[] = [...user("Q?"), { role: "assistant", content: "Let me think" }];
    const e = await failure(
      drain(backend.stream({ ...request(), messages }, new AbortController().signal)),
    );
    expect(e.code).toBe("bad_request");
    expect(calls).toHaveLength(0);
  });

  it("classifies a string thrown mid-stream, after the deltas before it", async () => {
    const { engine } = fakeEngine([
      {
        chunks: ["a", "b", "c"],
        failAfter: 2,
        failWith: "DeviceLostError: The WebGPU device was lost while loading the model.",
      },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const seen: string[] = [];
    const e = await failure(
      collect(backend, request(), new AbortController().signal, (t) => seen.push(t)),
    );
    expect(seen).toEqual(["a", "b"]);
    expect(e.code).toBe("gpu_device_lost");
    expect(e.message).toContain("DeviceLostError");
  });

  it("classifies a rejected create (the prompt is over the context window)", async () => {
    const { engine } = fakeEngine([
      {
        rejectCreate:
          "ContextWindowSizeExceededError: Prompt tokens exceed context window size: number of prompt tokens: 5012; context window size: 4096",
      },
      { chunks: ["next"] },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    expect(
      (await failure(drain(backend.stream(request(), new AbortController().signal)))).code,
    ).toBe("context_length");
    // The turn was handed on: the next call runs.
    expect((await collect(backend, request(), new AbortController().signal)).text).toBe("next");
  });

  it("interrupts the engine on abort mid-stream and throws aborted", async () => {
    const { engine, state } = fakeEngine([{ chunks: ["one", "two", "three", "four"] }]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const controller = new AbortController();
    const seen: string[] = [];
    const e = await failure(
      collect(backend, request(), controller.signal, (t) => {
        seen.push(t);
        if (seen.length === 2) controller.abort();
      }),
    );
    expect(e.code).toBe("aborted");
    expect(seen).toEqual(["one", "two"]);
    expect(state.interrupts).toBe(1);
    await vi.waitFor(() => expect(state.closed).toBe(1));
  });

  it("returns promptly on abort during a long prefill, and holds the turn until the engine stops", async () => {
    const prefill = deferred();
    const { engine, state, calls } = fakeEngine([
      { gate: prefill.promise, chunks: ["late"] },
      { chunks: ["second"] },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const controller = new AbortController();
    const first = failure(drain(backend.stream(request("first"), controller.signal)));
    await tick();
    controller.abort();
    expect((await first).code).toBe("aborted");
    expect(state.interrupts).toBe(1);

    const second = collect(backend, request("second"), new AbortController().signal);
    await tick();
    expect(calls).toHaveLength(1); // still the first one's turn: the engine has not stopped yet
    prefill.resolve();
    expect((await second).text).toBe("second");
    expect(state.maxActive).toBe(1);
  });

  it("runs concurrent calls one at a time, first come first served", async () => {
    const gate = deferred();
    const { engine, calls, state } = fakeEngine([
      { gate: gate.promise, chunks: ["A"] },
      { chunks: ["B"] },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const order: string[] = [];
    const a = collect(backend, request("a"), new AbortController().signal).then((r) =>
      order.push(r.text),
    );
    const b = collect(backend, request("b"), new AbortController().signal).then((r) =>
      order.push(r.text),
    );
    await tick();
    expect(calls.map((c) => c.messages[1]?.content)).toEqual(["a"]);
    expect(backend.waiting).toBe(1);
    gate.resolve();
    await Promise.all([a, b]);
    expect(order).toEqual(["A", "B"]);
    expect(calls.map((c) => c.messages[1]?.content)).toEqual(["a", "b"]);
    expect(state.maxActive).toBe(1);
    expect(backend.waiting).toBe(0);
  });

  it("lets an aborted queued call leave the queue without ever running", async () => {
    const gate = deferred();
    const { engine, calls } = fakeEngine([
      { gate: gate.promise, chunks: ["A"] },
      { chunks: ["C"] },
    ]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const a = collect(backend, request("a"), new AbortController().signal);
    const bController = new AbortController();
    const b = failure(collect(backend, request("b"), bController.signal));
    const c = collect(backend, request("c"), new AbortController().signal);
    await tick();
    expect(backend.waiting).toBe(2);
    bController.abort();
    expect((await b).code).toBe("aborted");
    expect(backend.waiting).toBe(1);
    gate.resolve();
    expect((await a).text).toBe("A");
    expect((await c).text).toBe("C");
    expect(calls.map((x) => x.messages[1]?.content)).toEqual(["a", "c"]);
  });

  it("stops the engine when the consumer stops reading early", async () => {
    const { engine, state } = fakeEngine([{ chunks: ["x", "y", "z"] }, { chunks: ["next"] }]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    for await (const chunk of backend.stream(request(), new AbortController().signal)) {
      expect(chunk).toEqual({ type: "delta", text: "x" });
      break;
    }
    expect(state.interrupts).toBe(1);
    expect((await collect(backend, request(), new AbortController().signal)).text).toBe("next");
    expect(state.maxActive).toBe(1);
  });

  it("reads an interruption it did not ask for as aborted", async () => {
    const { engine } = fakeEngine([{ chunks: ["a", "b", "c"] }]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const e = await failure(
      collect(backend, request(), new AbortController().signal, () => engine.interruptGenerate()),
    );
    expect(e.code).toBe("aborted");
  });

  it("loads another model after the running generation, and classifies load failures", async () => {
    const gate = deferred();
    const { engine, reload } = fakeEngine([{ gate: gate.promise, chunks: ["A"] }]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const running = collect(backend, request(), new AbortController().signal);
    const loading = backend.load("Qwen2.5-3B-Instruct-q4f16_1-MLC", { context_window_size: 8192 });
    await tick();
    expect(reload).not.toHaveBeenCalled();
    gate.resolve();
    await Promise.all([running, loading]);
    expect(reload).toHaveBeenCalledWith("Qwen2.5-3B-Instruct-q4f16_1-MLC", {
      context_window_size: 8192,
    });
    expect(backend.modelId).toBe("Qwen2.5-3B-Instruct-q4f16_1-MLC");
    expect(backend.label).toBe(
      `${MODEL} (in this browser)`.replace(MODEL, "Qwen2.5-3B-Instruct-q4f16_1-MLC"),
    );

    reload.mockImplementationOnce(() => Promise.reject("TypeError: Failed to fetch"));
    expect((await failure(backend.load("Qwen2.5-0.5B-Instruct-q4f16_1-MLC"))).code).toBe(
      "model_download",
    );
    expect(backend.modelId).toBeUndefined();
    expect(
      (await failure(drain(backend.stream(request(), new AbortController().signal)))).code,
    ).toBe("model_not_loaded");
  });

  it("unloads: the running call stops, queued calls fail as not loaded, then the engine unloads", async () => {
    const gate = deferred();
    const { engine, unload, calls } = fakeEngine([{ gate: gate.promise, chunks: ["A", "B"] }]);
    const backend = createWebLLMBackend(engine, { modelId: MODEL });
    const running = failure(collect(backend, request("a"), new AbortController().signal));
    const queued = failure(collect(backend, request("b"), new AbortController().signal));
    await tick();
    const unloading = backend.unload();
    gate.resolve();
    expect((await running).code).toBe("aborted");
    expect((await queued).code).toBe("model_not_loaded");
    await unloading;
    expect(unload).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1);
    expect(backend.modelId).toBeUndefined();
  });
});

describe("the plan grammar through the in-browser backend", () => {
  const POOL = { workers: 3, maxSteps: 4, round: 0 };
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
    const grammar = buildPlanGrammar({ ...POOL, opening: DEFAULT_OPENING });
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
