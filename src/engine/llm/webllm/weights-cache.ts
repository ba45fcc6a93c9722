/**
 * What WebLLM keeps in the browser's Cache API (its default backend), read without loading WebLLM:
 * weights, `tensor-cache.json` and the tokenizer under "webllm/model", `mlc-chat-config.json` under
 * "webllm/config", and the model library under "webllm/wasm", each keyed by its URL.
 */
import { z } from "zod";
import { cleanModelUrl } from "./custom.ts";
import type { ModelRecordLike } from "./catalogue.ts";

export interface ResponseLike {
  readonly headers: { get(name: string): string | null };
  blob(): Promise<{ readonly size: number }>;
  json(): Promise<unknown>;
}

export interface CacheLike {
  keys(): Promise<readonly { readonly url: string }[]>;
  match(url: string): Promise<ResponseLike | undefined>;
  delete(url: string): Promise<boolean>;
}

/** The browser's `caches` (CacheStorage), as far as it is used. */
export interface CacheStorageLike {
  has(name: string): Promise<boolean>;
  open(name: string): Promise<CacheLike>;
}

export const MODEL_CACHE = "webllm/model";
export const CONFIG_CACHE = "webllm/config";
export const WASM_CACHE = "webllm/wasm";

const TensorCacheSchema = z.object({
  records: z.array(z.object({ dataPath: z.string() })),
});

export interface CachedFiles {
  /** Bytes of every cached file of this model, the library included. */
  bytes: number;
  files: number;
  /** tensor-cache.json and every shard it lists are cached (WebLLM's `hasModelInCache`). */
  complete: boolean;
  /** tensor-cache.json is cached (so WebLLM can delete the model without the network). */
  hasManifest: boolean;
}

async function openIfPresent(
  caches: CacheStorageLike,
  name: string,
): Promise<CacheLike | undefined> {
  // `open` would create an empty cache as a side effect; ask first.
  return (await caches.has(name)) ? caches.open(name) : undefined;
}

async function sizeOf(cache: CacheLike, url: string): Promise<number> {
  const response = await cache.match(url);
  if (!response) return 0;
  const length = Number(response.headers.get("content-length"));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

/** URLs in `cache` that belong to the model folder at `modelUrl`. */
async function urlsUnder(cache: CacheLike | undefined, modelUrl: string): Promise<string[]> {
  if (!cache) return [];
  return (await cache.keys()).map((r) => r.url).filter((url) => url.startsWith(modelUrl));
}

/** Sizes up what the cache holds for one model record. Never throws (unreadable means empty). */
export async function inspectCachedModel(
  caches: CacheStorageLike,
  record: Pick<ModelRecordLike, "model" | "model_lib">,
): Promise<CachedFiles> {
  const empty: CachedFiles = { bytes: 0, files: 0, complete: false, hasManifest: false };
  try {
    const modelUrl = cleanModelUrl(record.model);
    const models = await openIfPresent(caches, MODEL_CACHE);
    const configs = await openIfPresent(caches, CONFIG_CACHE);
    const wasms = await openIfPresent(caches, WASM_CACHE);
    const modelUrls = await urlsUnder(models, modelUrl);
    const configUrls = await urlsUnder(configs, modelUrl);
    let bytes = 0;
    for (const url of modelUrls) if (models) bytes += await sizeOf(models, url);
    for (const url of configUrls) if (configs) bytes += await sizeOf(configs, url);
    const lib = wasms ? await sizeOf(wasms, record.model_lib) : 0;
    const files = modelUrls.length + configUrls.length + (lib > 0 ? 1 : 0);
    if (files === 0) return empty;

    const manifestUrl = new URL("tensor-cache.json", modelUrl).href;
    const manifest = models ? await models.match(manifestUrl) : undefined;
    let complete = false;
    if (manifest) {
      const parsed = TensorCacheSchema.safeParse(await manifest.json().catch(() => undefined));
      const have = new Set(modelUrls);
      complete =
        parsed.success &&
        parsed.data.records.every((r) => have.has(new URL(r.dataPath, modelUrl).href));
    }
    return { bytes: bytes + lib, files, complete, hasManifest: manifest !== undefined };
  } catch {
    return empty;
  }
}

/**
 * Deletes every cached file of a model, including partial downloads that WebLLM's own delete
 * cannot see. The library is kept when another model uses it (`keepLib`). Returns the files deleted.
 */
export async function removeCachedModel(
  caches: CacheStorageLike,
  record: Pick<ModelRecordLike, "model" | "model_lib">,
  keepLib = false,
): Promise<number> {
  const modelUrl = cleanModelUrl(record.model);
  let deleted = 0;
  for (const name of [MODEL_CACHE, CONFIG_CACHE]) {
    const cache = await openIfPresent(caches, name);
    for (const url of await urlsUnder(cache, modelUrl)) {
      if (await cache?.delete(url)) deleted += 1;
    }
  }
  if (!keepLib) {
    const wasms = await openIfPresent(caches, WASM_CACHE);
    if (await wasms?.delete(record.model_lib)) deleted += 1;
  }
  return deleted;
}
