// The store's History slice: stored runs as last read, the query and the selection.
import type { StateCreator } from "zustand";
import type { HistoryEntry, HistoryFilter } from "../../engine/store/history-view.ts";
import { historyView } from "../../engine/store/history-view.ts";
import type { StorageInfo } from "../../engine/store/browser.ts";
import type { RunMeta, StoredRecord } from "../../engine/store/schema.ts";
import type { StudioState } from "./store.ts";

export type HistoryQuery = HistoryFilter;

/** How long a deleted run can be brought back. */
export const UNDO_MS = 6000;

/** The History panel: stored runs as last read, the query, the selection (historyController.ts reads). */
export interface HistorySlice {
  historyOpen: boolean;
  /** Every stored row, newest first, as last read (filtered and searched in memory). */
  historyAll: RunMeta[];
  /** What the list shows for the query: runs and evaluations (their items folded). */
  historyEntries: HistoryEntry[];
  /** The runs among the entries (selection, compare and export work on runs). */
  historyRows: RunMeta[];
  historyQuery: HistoryQuery;
  historySelected: string[];
  historyStorage: (StorageInfo & { runs: number; bytes: number }) | null;
  /** The last delete, undoable for UNDO_MS after it (historyController.ts deleteRuns). */
  historyDeleted: { count: number; removed: { rows: RunMeta[]; records: StoredRecord[] } } | null;
  /** Two stored keys to compare side by side. */
  historyCompare: [string, string] | null;
  historyError: string | null;
  setHistoryQuery: (patch: Partial<HistoryQuery>) => void;
  toggleHistorySelected: (key: string) => void;
  setHistoryCompare: (pair: [string, string] | null) => void;
}

/** The list's fields for rows and a query; the selection keeps only runs still listed. */
export function historyListOf(all: RunMeta[], query: HistoryQuery, selected: string[]) {
  const { entries, runs } = historyView(all, query);
  const keys = new Set(runs.map((r) => r.key));
  return {
    historyAll: all,
    historyQuery: query,
    historyEntries: entries,
    historyRows: runs,
    historySelected: selected.filter((k) => keys.has(k)),
  };
}

export const createHistorySlice: StateCreator<StudioState, [], [], HistorySlice> = (set) => ({
  historyOpen: false,
  historyAll: [],
  historyEntries: [],
  historyRows: [],
  historyQuery: { text: "", status: "", starred: false, kind: "grouped" },
  historySelected: [],
  historyStorage: null,
  historyDeleted: null,
  historyCompare: null,
  historyError: null,
  // A new query filters the rows already read: no storage read, so a search is instant.
  setHistoryQuery: (patch) =>
    set((s) => historyListOf(s.historyAll, { ...s.historyQuery, ...patch }, s.historySelected)),
  toggleHistorySelected: (key) =>
    set((s) => ({
      historySelected: s.historySelected.includes(key)
        ? s.historySelected.filter((k) => k !== key)
        : [...s.historySelected, key],
    })),
  setHistoryCompare: (historyCompare) => set({ historyCompare }),
});
