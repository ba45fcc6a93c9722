import { create } from "zustand";

/** UI ephemera that several components share and nothing exports: dialogs, expanded groups. */
export interface UiState {
  settingsOpen: boolean;
  openSettings: () => void;
  closeSettings: () => void;
  /** Nested workflows drawn expanded, by group key. */
  expanded: ReadonlySet<string>;
  toggleExpanded: (key: string) => void;
}

export const useUi = create<UiState>()((set) => ({
  settingsOpen: false,
  openSettings: () => set({ settingsOpen: true }),
  closeSettings: () => set({ settingsOpen: false }),
  expanded: new Set(),
  toggleExpanded: (key) =>
    set((s) => {
      const expanded = new Set(s.expanded);
      if (expanded.has(key)) expanded.delete(key);
      else expanded.add(key);
      return { expanded };
    }),
}));
