/* eslint-disable @typescript-eslint/prefer-promise-reject-errors --
   WebLLM's worker rejects with strings, and the fake engine must do the same. */
import { describe, expect, it, vi } from "vitest";
import type { ChatMessage } from "../../schema/usage.ts";
import { collect } from "../types.ts";
import { createWebLLMBackend } from "./backend.ts";
import {
  MODEL,
  deferred,
  drain,
  failure,
  fakeBackend,
  fakeEngine,
  request,
  tick,
  user,
} from "../../../test-support/webllm-engine-fake.ts";

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
    const { calls, backend } = fakeBackend([{ chunks: ["abcdefgh"], usage: null }]);
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
    const { calls, backend } = fakeBackend([]);
    const messages: ChatMessage[] = [...user("Q?"), { role: "assistant", content: "Let me think" }];
    const e = await failure(
      drain(backend.stream({ ...request(), messages }, new AbortController().signal)),
    );
    expect(e.code).toBe("bad_request");
    expect(calls).toHaveLength(0);
  });

  it("classifies a string thrown mid-stream, after the deltas before it", async () => {
    const { backend } = fakeBackend([
      {
        chunks: ["a", "b", "c"],
        failAfter: 2,
        failWith: "DeviceLostError: The WebGPU device was lost while loading the model.",
      },
    ]);
    const seen: string[] = [];
    const e = await failure(
      collect(backend, request(), new AbortController().signal, (t) => seen.push(t)),
    );
    expect(seen).toEqual(["a", "b"]);
    expect(e.code).toBe("gpu_device_lost");
    expect(e.message).toContain("DeviceLostError");
  });

  it("classifies a rejected create (the prompt is over the context window)", async () => {
    const { backend } = fakeBackend([
      {
        rejectCreate:
          "ContextWindowSizeExceededError: Prompt tokens exceed context window size: number of prompt tokens: 5012; context window size: 4096",
      },
      { chunks: ["next"] },
    ]);
    expect(
      (await failure(drain(backend.stream(request(), new AbortController().signal)))).code,
    ).toBe("context_length");
    // The turn was handed on: the next call runs.
    expect((await collect(backend, request(), new AbortController().signal)).text).toBe("next");
  });

  it("interrupts the engine on abort mid-stream and throws aborted", async () => {
    const { state, backend } = fakeBackend([{ chunks: ["one", "two", "three", "four"] }]);
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
    const { state, calls, backend } = fakeBackend([
      { gate: prefill.promise, chunks: ["late"] },
      { chunks: ["second"] },
    ]);
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
    const { calls, state, backend } = fakeBackend([
      { gate: gate.promise, chunks: ["A"] },
      { chunks: ["B"] },
    ]);
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
    const { calls, backend } = fakeBackend([
      { gate: gate.promise, chunks: ["A"] },
      { chunks: ["C"] },
    ]);
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
    const { state, backend } = fakeBackend([{ chunks: ["x", "y", "z"] }, { chunks: ["next"] }]);
    for await (const chunk of backend.stream(request(), new AbortController().signal)) {
      expect(chunk).toEqual({ type: "delta", text: "x" });
      break;
    }
    expect(state.interrupts).toBe(1);
    expect((await collect(backend, request(), new AbortController().signal)).text).toBe("next");
    expect(state.maxActive).toBe(1);
  });

  it("reads an interruption it did not ask for as aborted", async () => {
    const { engine, backend } = fakeBackend([{ chunks: ["a", "b", "c"] }]);
    const e = await failure(
      collect(backend, request(), new AbortController().signal, () => engine.interruptGenerate()),
    );
    expect(e.code).toBe("aborted");
  });

  it("loads another model after the running generation, and classifies load failures", async () => {
    const gate = deferred();
    const { reload, backend } = fakeBackend([{ gate: gate.promise, chunks: ["A"] }]);
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
    const { unload, calls, backend } = fakeBackend([{ gate: gate.promise, chunks: ["A", "B"] }]);
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
