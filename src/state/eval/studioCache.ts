// Evaluate's response cache: the engine's cache (llm/cache.ts) over the IndexedDB store. Only
// evaluations use it; a single studio run is never cached, since pressing Run (or Retry) again
// asks for a fresh answer (docs/cache.md, "The response cache in the studio").
import type { CacheMode, ResponseCache } from "../../engine/llm/cache.ts";
import { emptyCacheStats, withCache } from "../../engine/llm/cache.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import type { ConductorConfig, Worker } from "../../engine/schema/worker.ts";
import type { StudioCacheStore } from "../storage/responseCacheStore.ts";
import { createIdbCacheStore } from "../storage/responseCacheStore.ts";

let store: StudioCacheStore | null = null;

/** The store in use (IndexedDB, or a test's). */
export function studioCacheStore(): StudioCacheStore {
  store ??= createIdbCacheStore();
  return store;
}

/** Replaces the store (tests). */
export function setStudioCacheStore(s: StudioCacheStore): void {
  store = s;
}

/** The Evaluate setup's cache choice. */
export interface CacheSetup {
  cache: boolean;
  cacheMode: CacheMode;
}

/**
 * A cache for one evaluation run, or undefined with the cache off. Its repeats are `distinct`:
 * the engine's evaluation runner gives each task (item, strategy, repeat) its own answers, counted
 * within the task (llm/cache.ts), so repeats stay independent samples, a resume after a reload
 * makes exactly the calls left, and the evaluation run again costs nothing.
 */
export function evaluationCache(setup: CacheSetup): ResponseCache | undefined {
  if (!setup.cache) return undefined;
  return {
    store: studioCacheStore(),
    mode: setup.cacheMode,
    stats: emptyCacheStats(),
    repeats: "distinct",
  };
}

/** The in-browser model has no endpoint: its calls are addressed by this name and the model id. */
const IN_BROWSER_ENDPOINT = "in-browser:webllm";

/** A worker's backend behind the cache (the Conductor-as-worker is served by the Conductor's). */
export function cachedWorker(
  cache: ResponseCache | undefined,
  backend: ChatBackend,
  w: Worker,
): ChatBackend {
  if (!cache || w.kind === "conductor") return backend;
  const baseURL = w.kind === "webllm" ? IN_BROWSER_ENDPOINT : w.baseURL;
  return withCache(backend, cache, {
    baseURL,
    model: w.model,
    ...(w.price ? { price: w.price } : {}),
  });
}

/** The Conductor's backend behind the cache: its plans are calls like any other. */
export function cachedConductor(
  cache: ResponseCache | undefined,
  backend: ChatBackend,
  c: ConductorConfig,
): ChatBackend {
  if (!cache) return backend;
  return withCache(backend, cache, {
    baseURL: c.kind === "webllm" ? IN_BROWSER_ENDPOINT : c.baseURL,
    model: c.model,
    ...(c.price ? { price: c.price } : {}),
  });
}

/** What the evaluation says when some answers could not be stored; null when all were. */
export function cacheWriteMessage(cache: ResponseCache | undefined): string | null {
  const n = cache?.stats.writeErrors ?? 0;
  if (!cache || n === 0) return null;
  const why =
    studioCacheStore().writeFailure()?.message ?? "The response cache could not be written.";
  return `${n} answer(s) were not stored in the response cache. ${why}`;
}

/** The cache's size in words for the Evaluate setup, e.g. "12 answers · 34 KB". */
export async function cacheSizeText(): Promise<string> {
  const size = await studioCacheStore().size();
  if (!size.ok) return size.message;
  const kb = size.bytes / 1024;
  const bytes = kb < 1024 ? `${Math.ceil(kb)} KB` : `${(kb / 1024).toFixed(1)} MB`;
  return size.entries === 0
    ? "empty"
    : `${size.entries.toLocaleString()} answer${size.entries === 1 ? "" : "s"} · ${bytes}`;
}

/** Deletes every stored answer; a message when storage refused. */
export async function clearCache(): Promise<string | null> {
  const done = await studioCacheStore().clear();
  return done.ok ? null : done.message;
}
