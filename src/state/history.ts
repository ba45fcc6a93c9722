import { create } from "zustand";
import type { RunStatus } from "../engine/schema/record.ts";
import type { StorageInfo } from "../engine/store/browser.ts";
import { storageInfo } from "../engine/store/browser.ts";
import type { RunMeta, StoredRecord } from "../engine/store/schema.ts";
import { runStore } from "./runStore.ts";

/** How long a deleted run can be brought back. */
export const UNDO_MS = 6000;

export interface HistoryQuery {
  text: string;
  status: RunStatus | "";
  starred: boolean;
}

export interface HistoryState {
  open: boolean;
  rows: RunMeta[];
  query: HistoryQuery;
  selected: string[];
  storage: (StorageInfo & { runs: number; bytes: number }) | null;
  /** The last delete, undoable until its timer ends. */
  undo: { count: number; removed: { rows: RunMeta[]; records: StoredRecord[] } } | null;
  /** Two stored keys to compare side by side. */
  compare: [string, string] | null;
  error: string | null;
  setOpen: (open: boolean) => void;
  setQuery: (patch: Partial<HistoryQuery>) => void;
  toggleSelected: (key: string) => void;
  setCompare: (pair: [string, string] | null) => void;
}

export const useHistory = create<HistoryState>()((set) => ({
  open: false,
  rows: [],
  query: { text: "", status: "", starred: false },
  selected: [],
  storage: null,
  undo: null,
  compare: null,
  error: null,
  setOpen: (open) => {
    set({ open });
    if (open) void refreshHistory();
  },
  setQuery: (patch) => {
    set((s) => ({ query: { ...s.query, ...patch } }));
    void refreshHistory();
  },
  toggleSelected: (key) =>
    set((s) => ({
      selected: s.selected.includes(key)
        ? s.selected.filter((k) => k !== key)
        : [...s.selected, key],
    })),
  setCompare: (compare) => set({ compare }),
}));

/** Rows read first when the list is empty: more than a screen shows. */
const FIRST_PAGE = 40;

let pending: Promise<void> | null = null;
let again = false;

/** Reads the history rows for the current query (one read at a time; a later call re-reads). */
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
      const q = useHistory.getState().query;
      const query = {
        text: q.text || undefined,
        status: q.status || undefined,
        starred: q.starred ? true : undefined,
      };
      // An empty list first gets the rows a screen shows, then all of them (a long history).
      if (!useHistory.getState().rows.length) {
        const first = await store.listRuns({ ...query, limit: FIRST_PAGE });
        useHistory.setState({ rows: first });
        if (first.length < FIRST_PAGE) continue;
      }
      const rows = await store.listRuns(query);
      const keys = new Set(rows.map((r) => r.key));
      useHistory.setState((s) => ({ rows, selected: s.selected.filter((k) => keys.has(k)) }));
    } while (again);
  })().finally(() => {
    pending = null;
  });
  await pending;
  void refreshStorage();
}

/** The storage line: stored runs and their size, and what the browser says is used and free. */
export async function refreshStorage(): Promise<void> {
  const store = runStore();
  if (!store) return;
  const [usage, info] = await Promise.all([store.usage(), storageInfo()]);
  useHistory.setState({ storage: { ...usage, ...info } });
}

let undoTimer: ReturnType<typeof setTimeout> | null = null;

/** Deletes runs, undoable for UNDO_MS after the last delete (with any delete still undoable). */
export async function deleteRuns(keys: string[]): Promise<void> {
  const store = runStore();
  if (!store || !keys.length) return;
  const deleted = await store.deleteRuns(keys);
  if (undoTimer !== null) clearTimeout(undoTimer);
  // A delete while an earlier one can still be undone joins it: Undo brings back both.
  const before = useHistory.getState().undo?.removed;
  const removed = before
    ? {
        rows: [...before.rows, ...deleted.rows],
        records: [...before.records, ...deleted.records],
      }
    : deleted;
  useHistory.setState({ undo: { count: removed.rows.length, removed } });
  undoTimer = setTimeout(() => useHistory.setState({ undo: null }), UNDO_MS);
  await refreshHistory();
}

/** Brings back the last deleted runs. */
export async function undoDelete(): Promise<void> {
  const store = runStore();
  const undo = useHistory.getState().undo;
  if (!store || !undo) return;
  if (undoTimer !== null) clearTimeout(undoTimer);
  useHistory.setState({ undo: null });
  const result = await store.restore(undo.removed);
  if (!result.ok) useHistory.setState({ error: result.message });
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
