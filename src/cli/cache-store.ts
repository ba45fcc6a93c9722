// The response cache on disk for the CLI (`--cache DIR`): one JSON file per response, named by the
// SHA-256 of its request, two hex digits of fan-out. See docs/cache.md.
import { createHash, randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type {
  CacheMode,
  CacheRepeats,
  CacheStore,
  CachedResponse,
  ResponseCache,
} from "../engine/llm/cache.ts";
import {
  CACHE_FORMAT,
  CACHE_VERSION,
  CacheModeSchema,
  emptyCacheStats,
  readCachedEntry,
} from "../engine/llm/cache.ts";
import { UsageError } from "./command.ts";

/** The file of `key` under `dir`: `DIR/v2/ab/<64 hex>.json` (the version's own folder). */
export function cacheFile(dir: string, key: string): string {
  const hex = key.replace(/^sha256:/, "");
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new RangeError(`Not a cache key: ${key}`);
  return join(dir, `v${CACHE_VERSION}`, hex.slice(0, 2), `${hex}.json`);
}

// Entries are read and written with node:fs's callbacks: fs/promises spent more CPU than the disk
// did on each of a reward batch's thousands of small files (a FileHandle per file, a promise per step).

/** The text of `file`, or undefined when it cannot be read (a miss). */
const readText = (file: string) =>
  new Promise<string | undefined>((resolve) =>
    readFile(file, "utf8", (e, text) => resolve(e ? undefined : text)),
  );

/** A file written to a temporary name and renamed into place: a reader never sees half of it. */
function writeWhole(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  return new Promise((resolve, reject) =>
    writeFile(tmp, text, (e) => {
      if (e) return reject(e);
      rename(tmp, file, (renamed) => (renamed ? reject(renamed) : resolve()));
    }),
  );
}

/**
 * A store in a directory. Writes go to a temporary file renamed into place, so a reader (another
 * process sharing DIR) never sees half a file; an entry that does not parse is a miss. Entries of
 * an older version stay in their folder (`v1/`) unread; DIR's marker names the version written.
 */
export async function fileCacheStore(dir: string): Promise<CacheStore> {
  await mkdir(join(dir, `v${CACHE_VERSION}`), { recursive: true });
  const marker = join(dir, "conductor-cache.json");
  const about = `${JSON.stringify(
    {
      format: CACHE_FORMAT,
      version: CACHE_VERSION,
      layout: `v${CACHE_VERSION}/<2 hex>/<64 hex>.json`,
    },
    null,
    2,
  )}\n`;
  const written = (await readText(marker)) ?? "";
  if (written !== about) await writeWhole(marker, about);
  // Shard directories made so far: one mkdir per shard, not per write.
  const made = new Set<string>();
  return {
    async get(key) {
      const text = await readText(cacheFile(dir, key));
      return text === undefined ? undefined : readCachedEntry(text, key);
    },
    async put(entry: CachedResponse) {
      const file = cacheFile(dir, entry.key);
      const shard = join(file, "..");
      if (!made.has(shard)) {
        await mkdir(shard, { recursive: true });
        made.add(shard);
      }
      // Compact: entries hold whole prompts, and thousands are written a training step.
      await writeWhole(file, `${JSON.stringify(entry)}\n`);
    },
  };
}

/**
 * The cache of `--cache DIR --cache-mode MODE`, or undefined without --cache. `repeats`: whether
 * identical requests share one answer (`reward`) or each repeat keeps its own (`eval`, counted
 * per task; `serve`, per process).
 */
export async function openResponseCache(
  dir: string | undefined,
  mode: string | undefined,
  repeats: CacheRepeats = "share",
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<ResponseCache | undefined> {
  const parsedMode = parseCacheMode(mode);
  if (dir === undefined) {
    if (mode !== undefined) throw new UsageError("--cache-mode needs --cache DIR.");
    return undefined;
  }
  return {
    store: isRedisUrl(dir) ? await redisStore(dir, parsedMode, warn) : await fileCacheStore(dir),
    mode: parsedMode,
    stats: emptyCacheStats(),
    repeats,
    sha256Hex,
  };
}

/** Whether a --cache or --rate-limit-store value names a Redis (`redis://` or `rediss://`). */
export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value);
}

/**
 * `--cache redis://HOST:PORT/DB`: a Redis that cannot be reached at the start is a usage error
 * (loaded only then, so other commands never load the client). Misses claim their key in
 * read-write mode only (see node/redis/redis-cache.ts).
 */
async function redisStore(
  url: string,
  mode: CacheMode,
  warn: (line: string) => void,
): Promise<CacheStore> {
  const [{ openRedis }, { redisCacheStore }] = await Promise.all([
    import("../node/redis/link.ts"),
    import("../node/redis/redis-cache.ts"),
  ]);
  const link = await openRedis(url, warn).catch((e: unknown) => {
    throw new UsageError(`--cache: ${e instanceof Error ? e.message : String(e)}`);
  });
  return redisCacheStore(link, { claims: mode === "read-write" });
}

/** SHA-256 in hex, as `cacheKey` computes it (UTF-8 of the text). */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** `--cache-mode`: read-write (default), read-only or refresh. */
export function parseCacheMode(mode: string | undefined): CacheMode {
  const parsed = CacheModeSchema.safeParse(mode ?? "read-write");
  if (!parsed.success)
    throw new UsageError(
      `--cache-mode must be one of ${CacheModeSchema.options.join(", ")}, got "${mode}".`,
    );
  return parsed.data;
}

/** The log line for a cache's counters. */
export function cacheLine(cache: ResponseCache): string {
  const s = cache.stats;
  return `cache (${cache.mode}): ${s.hits} hits, ${s.misses} misses, $${s.savedCost.toFixed(4)} saved${s.writeErrors ? `, ${s.writeErrors} write errors` : ""}`;
}
