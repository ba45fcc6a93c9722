import { create } from "zustand";

/** UI ephemera that several components share and nothing exports: dialogs, expanded groups. */
export interface UiState {
  settingsOpen: boolean;
  openSettings: () => void;
  closeSettings: () => void;
  /** Nested workflows drawn expanded, by group key. */
  expanded: ReadonlySet<string>;
  toggleExpanded: (key: string) => void;
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

export const useUi = create<UiState>()((set) => ({
  settingsOpen: false,
  openSettings: () => set({ settingsOpen: true }),
  closeSettings: () => set({ settingsOpen: false }),
  expanded: new Set(),
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
  toggleExpanded: (key) =>
    set((s) => {
      const expanded = new Set(s.expanded);
      if (expanded.has(key)) expanded.delete(key);
      else expanded.add(key);
      return { expanded };
    }),
}));
