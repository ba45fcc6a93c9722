// The store's UI slice: dialogs, drawers, expanded groups and the layout epoch.
import type { StateCreator } from "zustand";
import type { StudioState, UiSlice } from "./studio-state.ts";
export type { UiSlice } from "./studio-state.ts";

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
