/**
 * One in-browser Conductor runtime holds memory at a time: loading a GGUF model (real llama.cpp,
 * wllama in Node, on the tiny test model) frees a loaded WebLLM model, and loading a WebLLM model
 * frees the GGUF one, through the studio's own controllers and store.
 */
import { openAsBlob } from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createGgufBackend } from "../../engine/llm/gguf/backend.ts";
import { LlmError, collect } from "../../engine/llm/types.ts";
import type { SmallEngine } from "../../engine/llm/webllm/backend.ts";
import { nodeWllama } from "../../cli/gguf/node-wllama.ts";
import { makeTinyGguf } from "../../test-support/cli/tiny-gguf.ts";
import { conductorBackend } from "../run/backends.ts";
import { loadGgufModel } from "./ggufController.ts";
import { loadModel, setEngineLoader, unloadModel } from "./inbrowserController.ts";
import { heldRuntime } from "./inbrowserRuntime.ts";
import { useStudio } from "../slices/store.ts";

// The browser's loader (wllama's browser build) replaced by the same library in Node.
vi.mock("./ggufLoader.ts", () => ({
  loadGguf: async (source: { files: File[] }, name: string) => {
    const wllama = await nodeWllama();
    await wllama.loadModel(source.files, { n_ctx: 2048, n_threads: 1 });
    return createGgufBackend(wllama, { modelId: name, contextWindow: 2048 });
  },
}));

/** A WebLLM engine that records whether its worker was ended. */
function fakeWebLLM() {
  const freed = { unloaded: 0, terminated: 0 };
  const engine: SmallEngine = {
    chat: { completions: { create: () => Promise.reject(new Error("not used")) } },
    interruptGenerate: () => undefined,
    reload: () => Promise.resolve(),
    unload: () => Promise.resolve(void (freed.unloaded += 1)),
  };
  setEngineLoader(() =>
    Promise.resolve({ ok: true, engine, terminate: () => void (freed.terminated += 1) }),
  );
  return freed;
}

const request = {
  messages: [{ role: "user" as const, content: "Hello" }],
  temperature: 0,
  maxTokens: 4,
};

afterAll(() => {
  unloadModel();
  setEngineLoader(null);
});

describe("switching the in-browser Conductor runtime", { timeout: 60_000 }, () => {
  it("frees WebLLM when a GGUF loads, and the GGUF when WebLLM loads", async () => {
    const webllm = fakeWebLLM();
    const id = useStudio.getState().conductor.webllmModelId;
    await loadModel(id);
    expect([useStudio.getState().ibStatus, heldRuntime()]).toEqual(["ready", "webllm"]);

    const blob = await openAsBlob(makeTinyGguf());
    const file = new File([blob], "tiny.gguf");
    await loadGgufModel({ files: [file] }, () => undefined);
    // The WebLLM worker was ended before llama.cpp took its place.
    expect(webllm).toEqual({ unloaded: 1, terminated: 1 });
    expect(heldRuntime()).toBe("gguf");
    const s = useStudio.getState();
    expect([s.ibStatus, s.ibModelId]).toEqual(["ready", "gguf:tiny"]);
    const gguf = conductorBackend(s);
    if (typeof gguf === "string") throw new Error(gguf);
    expect(gguf.label).toContain("GGUF");
    // llama.cpp answers (its own token counts, not an estimate).
    const out = await collect(gguf, request, new AbortController().signal);
    expect(out.usage).toMatchObject({ estimated: false });

    await loadModel(id);
    expect([useStudio.getState().ibStatus, useStudio.getState().ibModelId]).toEqual(["ready", id]);
    expect(heldRuntime()).toBe("webllm");
    // llama.cpp's engine has exited: the old backend refuses to generate.
    await expect(collect(gguf, request, new AbortController().signal)).rejects.toSatisfy(
      (e) => e instanceof LlmError && e.code === "model_not_loaded",
    );
  });
});
