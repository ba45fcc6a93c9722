/**
 * `/?fake-webllm`: in-browser models load as a scripted engine (engine/llm/webllm/scripted.ts)
 * instead of WebLLM, so Playwright can run in-browser steps without a GPU or a download. Only the
 * engine is replaced: loading a model in Settings goes through `loadModel` as a real load does (its
 * state, the WebLLM backend and its one-at-a-time queue, `setInBrowserBackend`), so the Conductor
 * status, the estimate and the pool show it loaded. Exposed as `window.__fakeWebLLM`. Loaded only
 * with that query (a dynamic import in main.tsx); it touches nothing until a model is loaded.
 */
import type { SmallChatRequest } from "../engine/llm/webllm/backend.ts";
import { classifyWebLLMError } from "../engine/llm/webllm/errors.ts";
import { parseProgress } from "../engine/llm/webllm/progress.ts";
import type { ScriptedReply } from "../engine/llm/webllm/scripted.ts";
import { createScriptedEngine } from "../engine/llm/webllm/scripted.ts";
import { loadModel, setEngineLoader } from "./inbrowserController.ts";
import { useStudio } from "./store.ts";

export interface FakeWebLLMHook {
  /** Replaces the scripted replies (see `ScriptedReply`). */
  script(replies: ScriptedReply[]): void;
  /** Every request the fake engine received, in order. */
  requests(): SmallChatRequest[];
  /** The most generations that ran at once. */
  maxActive(): number;
  /** Model ids the fake engine was loaded with. */
  loads(): string[];
  /** Loads `modelId` (default: the Conductor's in-browser model) as the Load button does. */
  load(modelId?: string): Promise<void>;
}

declare global {
  interface Window {
    __fakeWebLLM?: FakeWebLLMHook;
  }
}

/** `chunkDelayMs`: a real pause between streamed pieces, so overlapping generations would show. */
export function mountFakeWebLLM(chunkDelayMs = 10): FakeWebLLMHook {
  const fake = createScriptedEngine({ chunkDelayMs });
  setEngineLoader(async ({ modelId, chatOpts, onProgress, signal }) => {
    onProgress?.(parseProgress({ progress: 0, timeElapsed: 0, text: "Start to fetch params" }));
    await fake.engine.reload(modelId, chatOpts);
    if (signal?.aborted) return { ok: false, problem: classifyWebLLMError("AbortError") };
    onProgress?.(
      parseProgress({
        progress: 1,
        timeElapsed: 0,
        text: "Finish loading on WebGPU - fake engine",
      }),
    );
    return { ok: true, engine: fake.engine, terminate: () => undefined };
  });
  const hook: FakeWebLLMHook = {
    script: (replies) => fake.script(replies),
    requests: () => structuredClone(fake.requests),
    maxActive: () => fake.maxActive,
    loads: () => [...fake.reloads],
    load: (modelId) => loadModel(modelId ?? useStudio.getState().conductor.webllmModelId),
  };
  window.__fakeWebLLM = hook;
  return hook;
}
