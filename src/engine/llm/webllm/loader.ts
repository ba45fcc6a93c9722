/**
 * The thin browser adapter around WebLLM: runs the engine in a dedicated module Web Worker (the
 * only place the library loads: the page speaks worker-protocol.ts to it), reports download
 * progress, cancels downloads, and manages the model cache and persistent storage.
 * Browser-only: it touches Worker, navigator.storage and caches, and has no node tests.
 */
import type { SmallChatOptions, SmallEngine } from "./backend.ts";
import { inspectCachedModel, removeCachedModel } from "./weights-cache.ts";
import type { CacheStorageLike } from "./weights-cache.ts";
import { buildCatalogue } from "./catalogue.ts";
import type { ModelRecordLike } from "./catalogue.ts";
import type { WebLLMProblem } from "./webllm-errors.ts";
import { classifyWebLLMError } from "./webllm-errors.ts";
import type { LoadProgress } from "./progress.ts";
import { parseProgress } from "./progress.ts";
import type { InitProgressReportLike } from "./progress.ts";
import { connectEngine } from "./worker-protocol.ts";

/**
 * A model worker and the engine it serves. WebLLM waits forever for a worker that failed to start;
 * `failed` turns that into an error.
 */
function startWorker(
  customRecords: readonly ModelRecordLike[],
  onProgress?: (report: InitProgressReportLike) => void,
) {
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener("error", (ev) =>
      reject(new Error(`The model worker failed: ${ev.message}`)),
    );
  });
  const engine = connectEngine(worker, { customRecords, ...(onProgress ? { onProgress } : {}) });
  return { worker, engine, failed };
}

export interface LoadEngineOptions {
  modelId: string;
  /** Custom model records (see `customModelRecord`); their ids must not clash with prebuilt ones. */
  customRecords?: readonly ModelRecordLike[];
  /** e.g. a larger `context_window_size` than the record's 4096 (needs more GPU memory). */
  chatOpts?: SmallChatOptions;
  /** The catalogue's approximate size, shown until WebLLM reports its own total. */
  expectedMB?: number;
  onProgress?: (progress: LoadProgress) => void;
  /** Aborting cancels the download: the worker is terminated; fetched files stay cached. */
  signal?: AbortSignal;
}

export type LoadEngineResult =
  | {
      ok: true;
      engine: SmallEngine;
      /** Ends the worker and frees its GPU memory. */ terminate: () => void;
    }
  | { ok: false; problem: WebLLMProblem };

const cancelled = (): LoadEngineResult => ({
  ok: false,
  problem: classifyWebLLMError("AbortError"),
});

/**
 * Starts a worker and loads `modelId` in it. Resolves with the engine (pass it to
 * `createWebLLMBackend`) or with a classified problem; never rejects.
 */
export async function loadEngine(opts: LoadEngineOptions): Promise<LoadEngineResult> {
  const { signal } = opts;
  if (signal?.aborted) return cancelled();
  let worker: Worker | undefined;
  try {
    const started = startWorker(opts.customRecords ?? [], (report) =>
      opts.onProgress?.(parseProgress(report, opts.expectedMB)),
    );
    const w = started.worker;
    worker = w;
    const aborted = new Promise<"aborted">((resolve) => {
      signal?.addEventListener("abort", () => resolve("aborted"), { once: true });
    });
    const created = started.engine.reload(opts.modelId, opts.chatOpts).then(() => started.engine);
    void started.failed.catch(() => undefined);
    const engine: SmallEngine | "aborted" = await Promise.race([created, aborted, started.failed]);
    if (engine === "aborted") {
      w.terminate();
      return cancelled();
    }
    return { ok: true, engine, terminate: () => w.terminate() };
  } catch (e: unknown) {
    worker?.terminate();
    if (signal?.aborted) return cancelled();
    return { ok: false, problem: classifyWebLLMError(e) };
  }
}

/** Asks the browser not to evict the model cache under storage pressure. */
export async function requestPersistentStorage(): Promise<{
  supported: boolean;
  persisted: boolean;
}> {
  const storage = globalThis.navigator?.storage;
  if (typeof storage?.persist !== "function") return { supported: false, persisted: false };
  try {
    if (await storage.persisted()) return { supported: true, persisted: true };
    return { supported: true, persisted: await storage.persist() };
  } catch {
    return { supported: true, persisted: false };
  }
}

export interface CachedModel {
  id: string;
  /** Every weight shard is cached: loading needs no download. */
  complete: boolean;
  /** Megabytes (MiB), one decimal place. */
  sizeMB: number;
}

function cacheStorage(): CacheStorageLike | undefined {
  return typeof caches === "undefined" ? undefined : caches;
}

function recordsOf(custom: readonly ModelRecordLike[]): ModelRecordLike[] {
  const catalogue = buildCatalogue().map((m) => ({
    model: m.modelUrl,
    model_id: m.id,
    model_lib: m.modelLib,
  }));
  return [...catalogue, ...custom];
}

/**
 * The catalogue and custom models with files in the cache (complete or partial downloads), with
 * their sizes. Reads the Cache API directly, so listing does not load WebLLM.
 */
export async function listCachedModels(
  custom: readonly ModelRecordLike[] = [],
): Promise<CachedModel[]> {
  const store = cacheStorage();
  if (!store) return [];
  const found: CachedModel[] = [];
  for (const record of recordsOf(custom)) {
    const files = await inspectCachedModel(store, record);
    if (files.files === 0) continue;
    found.push({
      id: record.model_id,
      complete: files.complete,
      sizeMB: Math.round((files.bytes / (1 << 20)) * 10) / 10,
    });
  }
  return found;
}

/**
 * Deletes a model's cached files: WebLLM's `deleteModelAllInfoInCache` where the model's manifest
 * is cached (it would otherwise fetch it), then a sweep for partial downloads. The shared model
 * library stays while another cached model uses it.
 */
export async function deleteCachedModel(
  id: string,
  custom: readonly ModelRecordLike[] = [],
): Promise<{ ok: true } | { ok: false; problem: WebLLMProblem }> {
  const store = cacheStorage();
  const records = recordsOf(custom);
  const record = records.find((r) => r.model_id === id);
  if (!store || !record) return { ok: true };
  try {
    const files = await inspectCachedModel(store, record);
    const libShared = await Promise.all(
      records
        .filter((r) => r.model_id !== id && r.model_lib === record.model_lib)
        .map(async (r) => (await inspectCachedModel(store, r)).files > 0),
    );
    const keepLib = libShared.some(Boolean);
    if (files.hasManifest && !keepLib) {
      const { worker, engine, failed } = startWorker(custom);
      try {
        await Promise.race([engine.deleteModel(id), failed]);
      } finally {
        worker.terminate();
      }
    }
    await removeCachedModel(store, record, keepLib);
    return { ok: true };
  } catch (e: unknown) {
    return { ok: false, problem: classifyWebLLMError(e) };
  }
}
