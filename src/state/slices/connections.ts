// The store's connection slice: which workers passed "Test connection" from this page.
import type { StateCreator } from "zustand";
import type { StudioState, ConnectionSlice } from "./studio-state.ts";
export type { ConnectionSlice } from "./studio-state.ts";

export const createConnectionSlice: StateCreator<StudioState, [], [], ConnectionSlice> = (set) => ({
  testedWorkers: new Set(),
  markTested: (workerId, ok) =>
    set((s) => {
      const next = new Set(s.testedWorkers);
      if (ok) next.add(workerId);
      else next.delete(workerId);
      return { testedWorkers: next };
    }),
});
