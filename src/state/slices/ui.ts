// The store's UI slice: dialogs, drawers, expanded groups and the layout epoch.
import type { StateCreator } from "zustand";
import type { StudioState } from "./store.ts";

/** UI ephemera that several components share and nothing exports: dialogs, expanded groups. */
export interface UiSlice {
  settingsOpen: boolean;
  openSettings: () => void;
  closeSettings: () => void;
  /** Nested workflows drawn expanded, by group key. */
  expandedGroups: ReadonlySet<string>;
  toggleGroupExpanded: (key: string) => void;
  /** Bumped by "Tidy up": the canvas forgets the positions it kept and lays the graph out anew. */
  layoutEpoch: number;
  relayout: () => void;
  /**
   * The side panels shown as drawers over the canvas, at widths where they are not columns (see
   * useLayoutMode): which ones are open.
   */
  drawers: { left: boolean; right: boolean };
  /** Opens or closes a drawer; `alone` also closes the other (a window too narrow for both). */
  setDrawer: (side: "left" | "right", open: boolean, alone?: boolean) => void;
}

export const createUiSlice: StateCreator<StudioState, [], [], UiSlice> = (set) => ({
  settingsOpen: false,
  openSettings: () => set({ settingsOpen: true }),
  closeSettings: () => set({ settingsOpen: false }),
  expandedGroups: new Set(),
  toggleGroupExpanded: (key) =>
    set((s) => {
      const expandedGroups = new Set(s.expandedGroups);
      if (expandedGroups.has(key)) expandedGroups.delete(key);
      else expandedGroups.add(key);
      return { expandedGroups };
    }),
  layoutEpoch: 0,
  relayout: () => set((s) => ({ layoutEpoch: s.layoutEpoch + 1 })),
  drawers: { left: true, right: false },
  setDrawer: (side, open, alone = false) =>
    set((s) => ({
      drawers: {
        ...(alone && open ? { left: false, right: false } : s.drawers),
        [side]: open,
      },
    })),
});
