/**
 * `/?fake-webllm`: in-browser models load as a scripted engine (engine/llm/webllm/scripted.ts)
 * instead of WebLLM, so Playwright can run in-browser steps without a GPU or a download. Only the
 * engine is replaced: loading a model in Settings goes through `loadModel` as a real load does (its
 * state, the WebLLM backend and its one-at-a-time queue, `setInBrowserBackend`), so the Conductor
 * status, the estimate and the pool show it loaded. Exposed as `window.__fakeWebLLM`. Loaded only
 * with that query (a dynamic import in main.tsx); it touches nothing until a model is loaded.
 */
import type { SmallChatRequest } from "../engine/llm/webllm/backend.ts";
import type { ScriptedReply } from "../engine/llm/webllm/scripted.ts";
import { createScriptedEngine } from "../engine/llm/webllm/scripted.ts";
import type { EngineLoader } from "./models/inbrowserController.ts";

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

/**
 * The controller's functions the hook drives, passed in by main.tsx: importing them here would
 * make the bundler split the modules it shares with the page into chunks of their own, which
 * costs the first load even without the query.
 */
export interface FakeWebLLMDeps {
  setEngineLoader(loader: EngineLoader | null): void;
  loadModel(id: string): Promise<void>;
  /** The in-browser model the Conductor settings name. */
  chosenModel(): string;
  /** A real pause between streamed pieces, so overlapping generations would show (default 10). */
  chunkDelayMs?: number;
}

declare global {
  interface Window {
    __fakeWebLLM?: FakeWebLLMHook;
  }
}

export function mountFakeWebLLM(deps: FakeWebLLMDeps): FakeWebLLMHook {
  const fake = createScriptedEngine({ chunkDelayMs: deps.chunkDelayMs ?? 10 });
  deps.setEngineLoader(async ({ modelId, chatOpts, onProgress }) => {
    onProgress?.({
      phase: "loading",
      progress: 0.5,
      text: "Loading the scripted engine (no download)…",
      rawText: "",
      elapsedSeconds: 0,
    });
    await fake.engine.reload(modelId, chatOpts);
    return { ok: true, engine: fake.engine, terminate: () => undefined };
  });
  const hook: FakeWebLLMHook = {
    script: (replies) => fake.script(replies),
    requests: () => structuredClone(fake.requests),
    maxActive: () => fake.maxActive,
    loads: () => [...fake.reloads],
    load: (modelId) => deps.loadModel(modelId ?? deps.chosenModel()),
  };
  window.__fakeWebLLM = hook;
  return hook;
}
