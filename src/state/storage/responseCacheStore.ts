// The studio's response cache store: the engine's content-addressed entries (llm/cache.ts, the
// same hashing and entry format as the CLI's `--cache DIR`) kept in IndexedDB, in a database of
// their own so that clearing the cache never touches runs or evaluations.
import Dexie from "dexie";
import type { Table } from "dexie";
import type { Failure, Result } from "../../engine/errors.ts";
import { failure } from "../../engine/errors.ts";
import type { CacheStore, CachedResponse } from "../../engine/llm/cache.ts";
import { CACHE_VERSION, CachedResponseSchema } from "../../engine/llm/cache.ts";
import { isQuotaError } from "../../engine/store/db.ts";

export const RESPONSE_CACHE_DB = "conductor-studio-response-cache";

/** One row: the entry as the CLI writes it to a file, with its size for the Evaluate setup. */
interface CacheRow {
  key: string;
  /** The entry format's version (CACHE_VERSION): a row of another version is a miss. */
  v: number;
  /** Bytes of the entry's JSON. */
  size: number;
  entry: unknown;
}

class CacheDb extends Dexie {
  entries!: Table<CacheRow, string>;
  constructor(name: string, deps?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
    super(name, deps);
    this.version(1).stores({ entries: "key, size" });
  }
}

export interface CacheSize {
  entries: number;
  bytes: number;
}

/** The IndexedDB store, plus what the Evaluate setup shows and does: its size, Clear. */
export interface StudioCacheStore extends CacheStore {
  size(): Promise<Result<CacheSize>>;
  clear(): Promise<Result<object>>;
  /** Why the latest write failed (storage full, storage unusable); null after a good write. */
  writeFailure(): Failure | null;
}

function storageFailure(e: unknown): Failure {
  if (isQuotaError(e)) return failure("cache_full");
  return failure("storage_unavailable", e instanceof Error ? e.message : String(e));
}

/**
 * The response cache in IndexedDB. A read that fails or finds a row that does not validate is a
 * miss; a write that fails rejects (the engine counts it as a write error and the call goes on)
 * and is remembered for the message the evaluation shows.
 */
export function createIdbCacheStore(
  name = RESPONSE_CACHE_DB,
  deps?: ConstructorParameters<typeof CacheDb>[1],
): StudioCacheStore {
  const db = new CacheDb(name, deps);
  let lastWrite: Failure | null = null;
  return {
    async get(key) {
      try {
        const row = await db.entries.get(key);
        if (!row || row.v !== CACHE_VERSION) return undefined;
        const parsed = CachedResponseSchema.safeParse(row.entry);
        return parsed.success && parsed.data.key === key ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async put(entry: CachedResponse) {
      const size = new TextEncoder().encode(JSON.stringify(entry)).length;
      try {
        await db.entries.put({ key: entry.key, v: CACHE_VERSION, size, entry });
        lastWrite = null;
      } catch (e: unknown) {
        lastWrite = storageFailure(e);
        throw e;
      }
    },
    async size() {
      try {
        // The size index's keys alone: no entry is read.
        const sizes = await db.entries.orderBy("size").keys();
        const bytes = sizes.reduce<number>((n, s) => n + (typeof s === "number" ? s : 0), 0);
        return { ok: true, entries: sizes.length, bytes };
      } catch (e: unknown) {
        return { ok: false, ...storageFailure(e) };
      }
    },
    async clear() {
      try {
        await db.entries.clear();
        lastWrite = null;
        return { ok: true };
      } catch (e: unknown) {
        return { ok: false, ...storageFailure(e) };
      }
    },
    writeFailure: () => lastWrite,
  };
}
