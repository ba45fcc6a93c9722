// The in-browser Conductor's controller: probe, download, load, unload and delete models.
import { createWebLLMBackend } from "../../engine/llm/webllm/backend.ts";
import {
  buildCatalogue,
  chooseModel,
  contextWindowFor,
} from "../../engine/llm/webllm/catalogue.ts";
import { classifyWebLLMError } from "../../engine/llm/webllm/webllm-errors.ts";
import type { LoadEngineOptions, LoadEngineResult } from "../../engine/llm/webllm/loader.ts";
import {
  deleteCachedModel,
  listCachedModels,
  loadEngine,
  requestPersistentStorage,
} from "../../engine/llm/webllm/loader.ts";
import { probeWebGPU } from "../../engine/llm/webllm/probe.ts";
import { holdRuntime, releaseRuntime } from "./inbrowserRuntime.ts";
import { useStudio } from "../slices/store.ts";

/** The catalogue shown in settings: the Conductor's base model first, then smaller ones. */
export const CATALOGUE = buildCatalogue();

/** Starts an engine with a model loaded: WebLLM's in a Web Worker (loader.ts) unless replaced. */
export type EngineLoader = (opts: LoadEngineOptions) => Promise<LoadEngineResult>;

let engineLoader: EngineLoader = loadEngine;

/**
 * Replaces how `loadModel` starts the engine (null: WebLLM's again). Only the `?fake-webllm` test
 * hook does this; everything after the engine (state, backend, queue) is the real path.
 */
export function setEngineLoader(loader: EngineLoader | null): void {
  engineLoader = loader ?? loadEngine;
}

let loading: AbortController | null = null;

/** Probes WebGPU once at start-up and picks the build the GPU can run. */
export async function probeNow(): Promise<void> {
  const probe = await probeWebGPU();
  const s = useStudio.getState();
  const choice = chooseModel(probe, s.conductor.webllmModelId);
  s.setInBrowser({ probe });
  if (choice.changed) s.setConductor({ webllmModelId: choice.id });
  await refreshCache();
}

/** Re-reads which models are in the browser's cache and their sizes. */
export async function refreshCache(): Promise<void> {
  const s = useStudio.getState();
  s.setInBrowser({ cachedModels: await listCachedModels(s.customRecords) });
}

/** Whether `id` must be downloaded first (not completely cached). */
export function needsDownload(id: string): boolean {
  return !useStudio.getState().cachedModels.some((m) => m.id === id && m.complete);
}

/** Size shown before a first download, in MB. */
export function downloadSizeMB(id: string): number | undefined {
  return CATALOGUE.find((m) => m.id === id)?.downloadMB;
}

/**
 * Downloads (if needed) and loads the model in a Web Worker. On success the in-browser backend
 * becomes the Conductor's and serves in-browser workers; one generation runs at a time.
 */
export async function loadModel(id: string): Promise<void> {
  const s = useStudio.getState();
  if (s.ibStatus === "loading") return;
  const controller = new AbortController();
  loading = controller;
  const persistence = needsDownload(id) ? await requestPersistentStorage() : s.persistence;
  s.setInBrowser({
    ibStatus: "loading",
    ibModelId: id,
    ibProgress: null,
    ibProblem: null,
    persistence,
  });
  // Whatever holds memory (a WebLLM or a GGUF model) is freed before this one loads.
  await releaseRuntime();
  const contextWindow = contextWindowFor(id, s.conductor.webllmContextWindow, s.customRecords);
  const result = await engineLoader({
    modelId: id,
    customRecords: s.customRecords,
    chatOpts: { context_window_size: contextWindow },
    expectedMB: downloadSizeMB(id),
    signal: controller.signal,
    onProgress: (ibProgress) => useStudio.getState().setInBrowser({ ibProgress }),
  });
  loading = null;
  const st = useStudio.getState();
  if (!result.ok) {
    // A download the user cancelled is not an error: back to idle, files fetched so far stay cached.
    if (controller.signal.aborted)
      st.setInBrowser({ ibStatus: "idle", ibProblem: null, ibProgress: null });
    else st.setInBrowser({ ibStatus: "error", ibProblem: result.problem });
    await refreshCache();
    return;
  }
  const backend = createWebLLMBackend(result.engine, {
    modelId: id,
    contextWindow,
    onStats: (ibStats) => useStudio.getState().setInBrowser({ ibStats }),
  });
  holdRuntime("webllm", backend, async () => {
    await backend.unload().catch(() => undefined);
    result.terminate();
  });
  st.setInBrowser({ ibStatus: "ready", ibProblem: null });
  await refreshCache();
}

/** Cancels a download in progress; files already fetched stay cached. */
export function cancelLoad(): void {
  loading?.abort();
}

/** Frees the memory of the loaded in-browser model (WebLLM's worker, or a GGUF model). */
export function unloadModel(): void {
  void releaseRuntime();
  useStudio.getState().setInBrowser({ ibStatus: "idle", ibStats: null });
}

/** Deletes a cached model's files (unloading it first if it is the loaded one). */
export async function deleteModel(id: string): Promise<void> {
  const s = useStudio.getState();
  if (s.ibModelId === id && s.ibStatus === "ready") unloadModel();
  const result = await deleteCachedModel(id, s.customRecords);
  if (!result.ok) s.setInBrowser({ ibProblem: result.problem, ibStatus: "error" });
  await refreshCache().catch((e: unknown) =>
    useStudio.getState().setInBrowser({ ibProblem: classifyWebLLMError(e), ibStatus: "error" }),
  );
}
