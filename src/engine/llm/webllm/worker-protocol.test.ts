import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatChunk } from "../types.ts";
import { createWebLLMBackend } from "./backend.ts";
import type { ModelRecordLike } from "./catalogue.ts";
import type { SmallChunk, SmallEngine } from "./engine-types.ts";
import { classifyWebLLMError } from "./webllm-errors.ts";
import type { InitProgressReportLike } from "./progress.ts";
import { createScriptedEngine } from "./scripted.ts";
import type { EngineLib } from "./worker-host.ts";
import { serveEngine } from "./worker-host.ts";
import type { PageMessage, Port, WorkerMessage } from "./worker-protocol.ts";
import { WorkerEngineError, connectEngine } from "./worker-protocol.ts";

const MODEL = "Qwen2.5-7B-Instruct-q4f16_1-MLC";
const CUSTOM: ModelRecordLike = {
  model: "https://m.test/w/",
  model_id: "Mine",
  model_lib: "x.wasm",
};
const REPORT: InitProgressReportLike = { progress: 0.5, timeElapsed: 2, text: "Fetching" };

async function drain(chunks: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** The page's and the worker's ends of one channel, as the browser's Worker and `self` are. */
function connect(engine: SmallEngine, lib: Partial<EngineLib> = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const seen = { created: [] as (readonly ModelRecordLike[])[], deleted: [] as string[] };
  const host: EngineLib = {
    createEngine: (records, onProgress) => {
      seen.created.push(records);
      onProgress(REPORT);
      return engine;
    },
    deleteModel: (id, records) => {
      seen.deleted.push(`${id} with ${records.map((r) => r.model_id).join(",")}`);
      return Promise.resolve();
    },
    ...lib,
  };
  serveEngine(channel.port2 as unknown as Port<WorkerMessage, PageMessage>, host);
  const progress: InitProgressReportLike[] = [];
  const page = connectEngine(channel.port1 as unknown as Port<PageMessage, WorkerMessage>, {
    customRecords: [CUSTOM],
    onProgress: (r) => progress.push(r),
  });
  channel.port1.start();
  channel.port2.start();
  return { page, progress, seen };
}

const ask = (text: string) => ({
  messages: [{ role: "user" as const, content: text }],
  temperature: 0.2,
  maxTokens: 64,
});

describe("the model worker's messages", () => {
  it("loads with the custom records and WebLLM's progress, then streams a generation through the backend", async () => {
    const scripted = createScriptedEngine({ replies: [{ text: "391 = 17 × 23." }] });
    const { page, progress, seen } = connect(scripted.engine);
    await page.reload(MODEL, { context_window_size: 8192 });
    expect(scripted.reloads).toEqual([MODEL]);
    expect(seen.created).toEqual([[CUSTOM]]);
    expect(progress).toEqual([REPORT]);

    const backend = createWebLLMBackend(page, { modelId: MODEL });
    const chunks = await drain(backend.stream(ask("Is 391 prime?"), new AbortController().signal));
    const text = chunks.map((c) => (c.type === "delta" ? c.text : "")).join("");
    expect(text).toBe("391 = 17 × 23.");
    expect(chunks.at(-1)).toEqual({
      type: "usage",
      usage: { promptTokens: 4, completionTokens: 3, estimated: false },
    });
    expect(backend.lastStats).toEqual({ prefillTokensPerSec: 900, decodeTokensPerSec: 40 });
    expect(await backend.runtimeStats()).toBe("prefill: 900.0 tok/s, decode: 40.0 tok/s");
    expect(scripted.requests[0]?.messages).toEqual([{ role: "user", content: "Is 391 prime?" }]);
  });

  it("a worker's error reaches the page as its text, so it is classified as before", async () => {
    const f16 = Object.assign(new Error("This model requires feature shader-f16"), {
      name: "ShaderF16SupportError",
    });
    const engine: SmallEngine = {
      ...createScriptedEngine().engine,
      reload: () => Promise.reject(f16),
    };
    const { page } = connect(engine);
    const error = await page.reload(MODEL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerEngineError);
    expect((error as Error).message).toBe(
      "ShaderF16SupportError: This model requires feature shader-f16",
    );
    expect(classifyWebLLMError(error)).toMatchObject({
      code: "no_shader_f16",
      detail: "ShaderF16SupportError: This model requires feature shader-f16",
    });
  });

  it("a failure to start a generation rejects the create call, and one mid-stream ends the stream", async () => {
    let calls = 0;
    async function* broken(): AsyncGenerator<SmallChunk> {
      await Promise.resolve();
      yield { choices: [{ delta: { content: "half" } }] };
      throw new Error("GPUDeviceLostError: device was lost");
    }
    const engine: SmallEngine = {
      ...createScriptedEngine().engine,
      chat: {
        completions: {
          create: () =>
            calls++ === 0
              ? Promise.reject(new Error("ModelNotLoadedError: not loaded with a model"))
              : Promise.resolve(broken()),
        },
      },
    };
    const { page } = connect(engine);
    const request = {
      messages: [{ role: "user" as const, content: "x" }],
      stream: true as const,
      stream_options: { include_usage: true as const },
      temperature: 0,
    };
    await expect(page.chat.completions.create(request)).rejects.toThrow("ModelNotLoadedError");
    const seen: string[] = [];
    const read = async () => {
      for await (const c of await page.chat.completions.create(request))
        seen.push(c.choices[0]?.delta?.content ?? "");
    };
    await expect(read()).rejects.toThrow("device was lost");
    expect(seen).toEqual(["half"]);
  });

  it("aborting interrupts the worker's engine, and a reader that stops early closes its stream there", async () => {
    const scripted = createScriptedEngine({
      replies: [{ text: "a long answer ".repeat(20) }, { text: "next" }],
      chunkSize: 2,
      chunkDelayMs: 1,
    });
    const { page } = connect(scripted.engine);
    await page.reload(MODEL);
    const backend = createWebLLMBackend(page, { modelId: MODEL });
    const controller = new AbortController();
    const first = backend.stream(ask("one"), controller.signal)[Symbol.asyncIterator]();
    await first.next();
    controller.abort();
    await expect(drain({ [Symbol.asyncIterator]: () => first })).rejects.toMatchObject({
      code: "aborted",
    });
    // The next turn starts only once the worker's generation has ended: never two at once.
    const chunks = await drain(backend.stream(ask("two"), new AbortController().signal));
    expect(
      chunks.filter((c) => c.type === "delta").map((c) => (c.type === "delta" ? c.text : "")),
    ).toEqual(["ne", "xt"]);
    expect(scripted.maxActive).toBe(1);
    expect(scripted.active).toBe(0);

    const early = await page.chat.completions.create({
      messages: [{ role: "user", content: "three" }],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
    });
    const it = early[Symbol.asyncIterator]();
    await it.next();
    await it.return?.();
    // The host ends the engine's stream: its generator's finally ran, nothing is active.
    await page.runtimeStatsText?.();
    await vi.waitFor(() => expect(scripted.active).toBe(0));
  });

  it("an unload reaches a reload that is still downloading; delete uses the custom records", async () => {
    let finishReload: (e: Error) => void = () => undefined;
    const engine: SmallEngine = {
      ...createScriptedEngine().engine,
      reload: () => new Promise<void>((_, reject) => (finishReload = reject)),
      unload: () => {
        finishReload(new Error("Reload() is aborted"));
        return Promise.resolve();
      },
    };
    const { page, seen } = connect(engine);
    const loading = page.reload(MODEL).catch((e: unknown) => e);
    await page.unload();
    expect(classifyWebLLMError(await loading).code).toBe("aborted");
    await page.deleteModel("Mine");
    expect(seen.deleted).toEqual(["Mine with Mine"]);
  });

  it("a failed delete rejects with the worker's text", async () => {
    const { page } = connect(createScriptedEngine().engine, {
      deleteModel: () => Promise.reject(new Error("QuotaExceededError: no room")),
    });
    await expect(page.deleteModel("Mine")).rejects.toThrow("QuotaExceededError: no room");
  });
});
