import type { Table } from "dexie";
import { Dexie } from "dexie";
import type { Result } from "../errors.ts";
import { failure } from "../errors.ts";
import { exportRun, importRun } from "../run/export.ts";
import { upgrade } from "../schema/migrate.ts";
import type { RunRecord } from "../schema/record.ts";
import { newestFirst } from "./history-view.ts";
import { metaOf, searchText } from "./meta.ts";
import type { EvalTag, RunMeta, RunQuery, StoredRecord, StoredValue } from "./db-schema.ts";
import { RunMetaSchema, STORED_RUN_MIGRATIONS, STORE_VERSION } from "./db-schema.ts";

/** Rows read per request when reading them all: a few ms of decoding, so a click waits little. */
const READ_CHUNK = 2_000;

class RunsDb extends Dexie {
  runs!: Table<RunMeta, string>;
  records!: Table<StoredRecord, string>;
  kv!: Table<StoredValue, string>;
  constructor(name: string, deps?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
    super(name, deps);
    // Version 1. A later schema adds `this.version(2).stores({...}).upgrade(tx => ...)` here.
    this.version(STORE_VERSION).stores({
      runs: "key, createdAt, savedAt, status, parentId, runId",
      records: "key",
      kv: "key",
    });
  }
}

/** Whether an error (Dexie's or the browser's) says the storage quota is exceeded. */
export function isQuotaError(e: unknown): boolean {
  for (let err = e; err && typeof err === "object";) {
    const name = "name" in err ? err.name : undefined;
    if (name === "QuotaExceededError") return true;
    err = "inner" in err ? err.inner : undefined;
  }
  return false;
}

function storeFailure(e: unknown) {
  if (isQuotaError(e)) return failure("storage_full");
  return failure("storage_unavailable", e instanceof Error ? e.message : String(e));
}

/** Extra facts kept with a run: the user's title and star, and the kind history shows. */
export type SaveMeta = Partial<Pick<RunMeta, "key" | "title" | "starred" | "kind" | "evaluation">>;

/**
 * The run store: every run as a stored record (its export text, so stored data has the export's
 * version and migrations) beside a small history row. Writes are atomic: the row and the record
 * go in one transaction, so a failed write (a full disk) leaves the previous version whole.
 */
export class RunStore {
  private db: RunsDb;
  constructor(name = "conductor-studio", deps?: ConstructorParameters<typeof RunsDb>[1]) {
    this.db = new RunsDb(name, deps);
  }

  /** Stores (or replaces) a run; the user's title and star are kept unless `meta` sets them. */
  async saveRun(
    record: RunRecord,
    meta: SaveMeta = {},
    at = Date.now(),
  ): Promise<Result<{ key: string }>> {
    const key = meta.key ?? record.id;
    try {
      const text = exportRun(record, new Date(at).toISOString());
      await this.db.transaction("rw", this.db.runs, this.db.records, async () => {
        const old = await this.db.runs.get(key);
        const row = metaOf(
          record,
          text.length,
          {
            key,
            title: meta.title ?? old?.title,
            starred: meta.starred ?? old?.starred,
            kind: meta.kind ?? old?.kind,
            evaluation: meta.evaluation ?? old?.evaluation,
          },
          at,
        );
        await this.db.records.put({ key, version: STORE_VERSION, run: text });
        await this.db.runs.put(row);
      });
      return { ok: true, key };
    } catch (e: unknown) {
      return { ok: false, ...storeFailure(e) };
    }
  }

  /** A stored run's record (migrated to this version) and row; null when there is none. */
  async getRun(
    key: string,
  ): Promise<Result<{ meta: RunMeta; record: RunRecord; text: string }> | null> {
    try {
      const [row, stored] = await Promise.all([this.db.runs.get(key), this.db.records.get(key)]);
      if (!row || !stored) return null;
      const migrated = upgrade(STORED_RUN_MIGRATIONS, stored);
      if (!migrated.ok) return { ok: false, ...failure("stored_invalid", migrated.message) };
      const text = typeof migrated.doc.run === "string" ? migrated.doc.run : "";
      const read = importRun(text);
      if (!read.ok) return { ok: false, ...failure("stored_invalid", read.message) };
      return { ok: true, meta: RunMetaSchema.parse(row), record: read.record, text };
    } catch (e: unknown) {
      return { ok: false, ...storeFailure(e) };
    }
  }

  /** History rows, newest first, filtered by the query. */
  async listRuns(q: RunQuery = {}): Promise<RunMeta[]> {
    const text = q.text?.trim().toLowerCase();
    let c = this.db.runs.orderBy("createdAt").reverse();
    if (text || q.status || q.starred !== undefined || q.parentId !== undefined)
      c = c.filter(
        (r) =>
          (!text || r.search.includes(text)) &&
          (!q.status || r.status === q.status) &&
          (q.starred === undefined || r.starred === q.starred) &&
          (q.parentId === undefined || r.parentId === q.parentId),
      );
    if (q.limit) c = c.limit(q.limit);
    return c.toArray();
  }

  /**
   * Every history row, newest first, read in chunks (IndexedDB's getAll, far faster than a
   * cursor): History filters and searches them in memory (see historyView). `between` runs
   * before each chunk after the first: the caller may hold the read there while something the
   * user asked for (opening a run) goes first.
   */
  async allRuns(between?: () => Promise<void>): Promise<RunMeta[]> {
    // In chunks by key: each read is one short task, so the page stays responsive meanwhile.
    const rows: RunMeta[] = [];
    for (let last: string | null = null; ;) {
      if (last !== null) await between?.();
      const chunk: RunMeta[] = await (
        last === null ? this.db.runs.toCollection() : this.db.runs.where(":id").above(last)
      )
        .limit(READ_CHUNK)
        .toArray();
      rows.push(...chunk);
      if (chunk.length < READ_CHUNK) break;
      last = chunk[chunk.length - 1]!.key;
    }
    return newestFirst(rows);
  }

  /** The rows stored (or renamed, starred) at or after `at`, and how many rows there are. */
  async changedSince(at: number): Promise<{ rows: RunMeta[]; count: number }> {
    const [rows, count] = await Promise.all([
      this.db.runs.where("savedAt").aboveOrEqual(at).toArray(),
      this.db.runs.count(),
    ]);
    return { rows, count };
  }

  /** Records which evaluation each listed run belongs to (items stored before that was kept). */
  async tagRuns(tags: ReadonlyMap<string, EvalTag>): Promise<Result<{ tagged: number }>> {
    try {
      let tagged = 0;
      await this.db.transaction("rw", this.db.runs, async () => {
        const keys = [...tags.keys()];
        const rows = await this.db.runs.bulkGet(keys);
        const next = rows.flatMap((row) => {
          const tag = row && !row.evaluation ? tags.get(row.key) : undefined;
          if (!row || !tag) return [];
          const [title = "", ...rest] = row.search.split("\n");
          return [{ ...row, evaluation: tag, search: searchText(title, rest.join("\n"), tag) }];
        });
        tagged = next.length;
        await this.db.runs.bulkPut(next);
      });
      return { ok: true, tagged };
    } catch (e: unknown) {
      return { ok: false, ...storeFailure(e) };
    }
  }

  /** The rows of runs that continue run `runId`. */
  async childrenOf(runId: string): Promise<RunMeta[]> {
    return this.db.runs.where("parentId").equals(runId).sortBy("createdAt");
  }

  /** The row of the stored run with this run id (the first stored copy), if any. */
  async byRunId(runId: string): Promise<RunMeta | undefined> {
    return this.db.runs.where("runId").equals(runId).first();
  }

  async hasKey(key: string): Promise<boolean> {
    return (await this.db.runs.get(key)) !== undefined;
  }

  /** Renames or stars a run (its record is not touched: runs are immutable). */
  async updateMeta(
    key: string,
    patch: Partial<Pick<RunMeta, "title" | "starred">>,
  ): Promise<Result<object>> {
    try {
      await this.db.transaction("rw", this.db.runs, async () => {
        const row = await this.db.runs.get(key);
        if (!row) return;
        const title = patch.title ?? row.title;
        // The search text is lower case, as listRuns compares it (metaOf writes it so too).
        const search = `${title.toLowerCase()}\n${row.search.split("\n").slice(1).join("\n")}`;
        // savedAt moves, so a reader that follows changes (changedSince) sees the new name or star.
        await this.db.runs.put({
          ...row,
          ...patch,
          search,
          savedAt: Math.max(Date.now(), row.savedAt),
        });
      });
      return { ok: true };
    } catch (e: unknown) {
      return { ok: false, ...storeFailure(e) };
    }
  }

  /** Deletes runs; returns what was removed so the caller can undo. */
  async deleteRuns(keys: string[]): Promise<{ rows: RunMeta[]; records: StoredRecord[] }> {
    return this.db.transaction("rw", this.db.runs, this.db.records, async () => {
      const rows = (await this.db.runs.bulkGet(keys)).filter((r) => r !== undefined);
      const records = (await this.db.records.bulkGet(keys)).filter((r) => r !== undefined);
      await this.db.runs.bulkDelete(keys);
      await this.db.records.bulkDelete(keys);
      return { rows, records };
    });
  }

  /** Puts back what `deleteRuns` removed. */
  async restore(removed: { rows: RunMeta[]; records: StoredRecord[] }): Promise<Result<object>> {
    try {
      await this.db.transaction("rw", this.db.runs, this.db.records, async () => {
        await this.db.records.bulkPut(removed.records);
        await this.db.runs.bulkPut(removed.rows);
      });
      return { ok: true };
    } catch (e: unknown) {
      return { ok: false, ...storeFailure(e) };
    }
  }

  /** The number of stored runs and the bytes of their records. */
  async usage(): Promise<{ runs: number; bytes: number }> {
    let bytes = 0;
    let runs = 0;
    await this.db.runs.each((r) => {
      runs++;
      bytes += r.bytes;
    });
    return { runs, bytes };
  }

  /** A stored value (the draft, the last open run), with the version it was written at. */
  async getValue(key: string): Promise<StoredValue | undefined> {
    try {
      return await this.db.kv.get(key);
    } catch {
      return undefined;
    }
  }

  async setValue(key: string, version: number, value: unknown): Promise<Result<object>> {
    try {
      await this.db.kv.put({ key, version, value });
      return { ok: true };
    } catch (e: unknown) {
      return { ok: false, ...storeFailure(e) };
    }
  }

  close(): void {
    this.db.close();
  }

  /** Removes the whole database (tests). */
  async destroy(): Promise<void> {
    await this.db.delete();
  }
}
