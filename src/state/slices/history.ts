// The store's History slice: stored runs as last read, the query and the selection.
import type { StateCreator } from "zustand";
import { historyView } from "../../engine/store/history-view.ts";
import type { RunMeta } from "../../engine/store/db-schema.ts";
import type { StudioState, HistoryQuery, HistorySlice } from "./studio-state.ts";
export type { HistoryQuery, HistorySlice } from "./studio-state.ts";

/** How long a deleted run can be brought back. */
export const UNDO_MS = 6000;

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
