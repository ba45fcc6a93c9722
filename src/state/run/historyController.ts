// The History panel's controller: list, delete, undo, star, rename and export stored runs.
import type { RunMeta } from "../../engine/store/db-schema.ts";
import { newestFirst } from "../../engine/store/history-view.ts";
import { storageInfo } from "../../engine/store/browser-storage.ts";
import { UNDO_MS, historyListOf } from "../slices/history.ts";
import { openSettled } from "./open.ts";
import { runStore } from "../storage/runStore.ts";
import { useStudio } from "../slices/store.ts";

/** Shows or hides the History panel; showing it reads the stored rows again. */
export function setHistoryOpen(open: boolean): void {
  useStudio.setState({ historyOpen: open });
  if (open) void refreshHistory();
}

/** Lists `all` under the query as it is; the selection keeps only runs still listed. */
const relist = (all: RunMeta[]) =>
  useStudio.setState((s) => historyListOf(all, s.historyQuery, s.historySelected));

/** Rows read first when nothing is listed yet: more than a screen shows, in one quick read. */
const FIRST_PAGE = 200;

let pending: Promise<void> | null = null;
let again = false;
/** The latest savedAt of the rows read, once every row has been read (else null). */
let mark: number | null = null;

const latestSave = (rows: readonly RunMeta[], from = 0) =>
  rows.reduce((m, r) => Math.max(m, r.savedAt), from);

/**
 * Every stored row, newest first. Once all were read, only what changed since is read again
 * (a long history is not re-read after each save); a count that does not add up (an import of
 * old runs, another tab's delete) reads them all again.
 */
async function readAll(store: NonNullable<ReturnType<typeof runStore>>): Promise<RunMeta[]> {
  const known = useStudio.getState().historyAll;
  if (mark !== null && known.length) {
    const { rows, count } = await store.changedSince(mark);
    if (!rows.length && count === known.length) return known;
    const byKey = new Map(known.map((r) => [r.key, r]));
    for (const r of rows) byKey.set(r.key, r);
    if (byKey.size === count) {
      mark = latestSave(rows, mark);
      return newestFirst([...byKey.values()]);
    }
  }
  const all = await store.allRuns(openSettled);
  mark = latestSave(all);
  return all;
}

/** Reads the history rows (one read at a time; a later call re-reads) and lists the query's. */
export async function refreshHistory(): Promise<void> {
  if (pending) {
    again = true;
    return pending;
  }
  const store = runStore();
  if (!store) return;
  pending = (async () => {
    do {
      again = false;
      // Nothing listed yet: the newest rows first, so a long history shows at once.
      if (!useStudio.getState().historyAll.length) {
        mark = null;
        const first = await store.listRuns({ limit: FIRST_PAGE });
        relist(first);
        if (first.length < FIRST_PAGE) continue;
      }
      const all = await readAll(store);
      // Listing every row is one long task: a run the user is opening is drawn first.
      await openSettled();
      if (all !== useStudio.getState().historyAll) relist(all);
    } while (again);
  })().finally(() => {
    pending = null;
  });
  await pending;
  void refreshStorage();
  void backfillEvalTags();
}

/** Takes rows out of (or puts rows back into) the list at once, as storage just did. */
function patchRows(remove: ReadonlySet<string>, add: readonly RunMeta[] = []): void {
  const all = useStudio.getState().historyAll;
  relist(newestFirst([...all.filter((r) => !remove.has(r.key)), ...add]));
}

let backfilled = false;

/**
 * Once a session: evaluation items stored before History kept their evaluation get it from the
 * evaluation store (which knows each item's run), so they fold into their evaluation's row.
 */
async function backfillEvalTags(): Promise<void> {
  const store = runStore();
  const untagged = useStudio
    .getState()
    .historyAll.filter((r) => r.kind === "evaluation" && !r.evaluation);
  if (backfilled || !store || !untagged.length) return;
  backfilled = true;
  const { evalTagsByRun } = await import("../eval/evalHistory.ts");
  const tags = await evalTagsByRun(new Set(untagged.map((r) => r.runId)));
  const byKey = new Map(
    untagged.flatMap((r) => {
      const tag = tags.get(r.runId);
      return tag ? [[r.key, tag] as const] : [];
    }),
  );
  if (!byKey.size) return;
  const done = await store.tagRuns(byKey);
  if (done.ok && done.tagged) await refreshHistory();
}

/** The storage line: stored runs and their size, and what the browser says is used and free. */
export async function refreshStorage(): Promise<void> {
  const store = runStore();
  if (!store) return;
  // Once every row is read, their count and sizes are in memory (no pass over the table).
  const all = useStudio.getState().historyAll;
  const usage =
    mark !== null
      ? { runs: all.length, bytes: all.reduce((n, r) => n + r.bytes, 0) }
      : await store.usage();
  const info = await storageInfo();
  useStudio.setState({ historyStorage: { ...usage, ...info } });
}

let undoTimer: ReturnType<typeof setTimeout> | null = null;

/** Deletes runs, undoable for UNDO_MS after the last delete (with any delete still undoable). */
export async function deleteRuns(keys: string[]): Promise<void> {
  const store = runStore();
  if (!store || !keys.length) return;
  const deleted = await store.deleteRuns(keys);
  patchRows(new Set(deleted.rows.map((r) => r.key)));
  if (undoTimer !== null) clearTimeout(undoTimer);
  // A delete while an earlier one can still be undone joins it: Undo brings back both.
  const before = useStudio.getState().historyDeleted?.removed;
  const removed = before
    ? {
        rows: [...before.rows, ...deleted.rows],
        records: [...before.records, ...deleted.records],
      }
    : deleted;
  useStudio.setState({ historyDeleted: { count: removed.rows.length, removed } });
  undoTimer = setTimeout(() => useStudio.setState({ historyDeleted: null }), UNDO_MS);
  await refreshHistory();
}

/** Brings back the last deleted runs. */
export async function undoDelete(): Promise<void> {
  const store = runStore();
  const undo = useStudio.getState().historyDeleted;
  if (!store || !undo) return;
  if (undoTimer !== null) clearTimeout(undoTimer);
  useStudio.setState({ historyDeleted: null });
  const result = await store.restore(undo.removed);
  if (!result.ok) useStudio.setState({ historyError: result.message });
  else patchRows(new Set(undo.removed.rows.map((r) => r.key)), undo.removed.rows);
  await refreshHistory();
}

export async function starRun(key: string, starred: boolean): Promise<void> {
  await runStore()?.updateMeta(key, { starred });
  await refreshHistory();
}

export async function renameRun(key: string, title: string): Promise<void> {
  await runStore()?.updateMeta(key, { title: title.trim() });
  await refreshHistory();
}

/** The stored export texts of runs, for "export selection". */
export async function exportTexts(keys: string[]): Promise<{ key: string; text: string }[]> {
  const store = runStore();
  if (!store) return [];
  const out: { key: string; text: string }[] = [];
  for (const key of keys) {
    const got = await store.getRun(key);
    if (got?.ok) out.push({ key, text: got.text });
  }
  return out;
}
