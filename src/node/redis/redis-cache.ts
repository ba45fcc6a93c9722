// The response cache in Redis (`--cache redis://HOST:PORT/DB`): the same keys, entries, modes and
// versioning as the directory store (cli/cache-store.ts), shared by every process that names the
// same Redis. A miss claims its key for a while, so an identical call on another replica waits for
// this one's answer instead of paying for its own (single flight across replicas).
import { randomBytes } from "node:crypto";
import type { CacheStore, CachedResponse } from "../../engine/llm/cache.ts";
import { CACHE_VERSION, readCachedEntry } from "../../engine/llm/cache.ts";
import type { RedisLink } from "./link.ts";

/** How long a claim holds: past it, a waiter calls for itself (the owner died or is slow). */
const CLAIM_MS = 60_000;

const hexOf = (key: string) => {
  const hex = key.replace(/^sha256:/, "");
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new RangeError(`Not a cache key: ${key}`);
  return hex;
};

/** The Redis key of an entry: the version's own namespace, as the directory's `v2/` folder. */
export const entryKey = (key: string) => `conductor:cache:v${CACHE_VERSION}:${hexOf(key)}`;
const claimKey = (key: string) => `conductor:claim:v${CACHE_VERSION}:${hexOf(key)}`;

/** Deletes a claim only if it is still this process's (it may have expired and been retaken). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store in Redis. `claims`: whether a miss claims its key (read-write mode; a read-only cache
 * never stores, so its claims would only make others wait). Every failure is a miss or a skipped
 * write (RedisLink says so once); an entry that does not parse, or is of another key, is a miss.
 */
export function redisCacheStore(link: RedisLink, o: { claims: boolean }): CacheStore {
  /** Claims this process holds, by cache key: the token that proves it. */
  const held = new Map<string, string>();
  const read = async (key: string): Promise<CachedResponse | undefined> => {
    const text = await link.run((c) => c.get(entryKey(key)), null);
    return text === null ? undefined : readCachedEntry(text, key);
  };
  const release = (key: string) => {
    const token = held.get(key);
    if (token === undefined) return Promise.resolve();
    held.delete(key);
    return link.run((c) => c.eval(RELEASE, { keys: [claimKey(key)], arguments: [token] }), 0);
  };
  return {
    async get(key) {
      const found = await read(key);
      if (found || !o.claims) return found;
      const started = Date.now();
      for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
        const token = randomBytes(12).toString("hex");
        const claimed = await link.run(
          (c) =>
            c.set(claimKey(key), token, {
              condition: "NX",
              expiration: { type: "PX", value: CLAIM_MS },
            }),
          "down",
        );
        // Ours (or Redis is down: no one else can be told, so call).
        if (claimed === "OK" || claimed === "down") {
          if (claimed === "OK") held.set(key, token);
          return undefined;
        }
        // Another replica is calling: its answer, once stored, is ours too.
        await pause(wait);
        const stored = await read(key);
        if (stored) return stored;
        if (link.down || Date.now() - started > CLAIM_MS) return undefined;
      }
    },
    async put(entry) {
      // Compact, as the directory's files: entries hold whole prompts.
      const text = JSON.stringify(entry);
      let ok = false;
      await link.run(async (c) => {
        await c.set(entryKey(entry.key), text);
        ok = true;
      }, undefined);
      await release(entry.key);
      if (!ok) throw new Error("Redis is down; the entry was not stored.");
    },
    release(key) {
      void release(key);
    },
    close: () => link.close(),
  };
}
