// The store's connection slice: which workers passed "Test connection" from this page.
import type { StateCreator } from "zustand";
import type { StudioState } from "./store.ts";

export interface ConnectionSlice {
  /** Workers whose "Test connection" succeeded from this page: the browser-access note says so. */
  testedWorkers: ReadonlySet<string>;
  /** Records a connection test's outcome: a failure forgets an earlier success. */
  markTested: (workerId: string, ok: boolean) => void;
}

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
