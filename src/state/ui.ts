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
}

export const useUi = create<UiState>()((set) => ({
  settingsOpen: false,
  openSettings: () => set({ settingsOpen: true }),
  closeSettings: () => set({ settingsOpen: false }),
  expanded: new Set(),
  layoutEpoch: 0,
  relayout: () => set((s) => ({ layoutEpoch: s.layoutEpoch + 1 })),
  toggleExpanded: (key) =>
    set((s) => {
      const expanded = new Set(s.expanded);
      if (expanded.has(key)) expanded.delete(key);
      else expanded.add(key);
      return { expanded };
    }),
}));
