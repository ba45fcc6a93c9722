// The store's in-browser Conductor slice: probe, load status, progress and cached models.
import type { StateCreator } from "zustand";
import type { StudioState, InBrowserSlice } from "./studio-state.ts";
export type { InBrowserStatus, InBrowserSlice } from "./studio-state.ts";

export const createInBrowserSlice: StateCreator<StudioState, [], [], InBrowserSlice> = (set) => ({
  probe: null,
  ibStatus: "idle",
  ibModelId: null,
  ibProgress: null,
  ibProblem: null,
  ibStats: null,
  cachedModels: [],
  customRecords: [],
  persistence: null,
  setInBrowser: (patch) => set(patch),
});
