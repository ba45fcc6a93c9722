// The store's run slice: the run record on screen, its phase and each step's latest result.
import type { StateCreator } from "zustand";
import { TOP, inFocus, roundAt } from "../../engine/run/focus.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { applyEvent, emptyRecord } from "../../engine/run/record.ts";
import { staleCopy } from "./undoMemory.ts";
import type { StudioState, StepResult, RunSlice } from "./studio-state.ts";
export type { StepResult, Phase, RunSlice } from "./studio-state.ts";

export type { Focus } from "../../engine/run/focus.ts";
export { TOP, inFocus, roundAt } from "../../engine/run/focus.ts";

export function resultFromRecord(s: RunRecord["rounds"][number]["steps"][number]): StepResult {
  return {
    status: s.status,
    output: s.output,
    messages: s.messages,
    usage: s.usage,
    cost: s.cost,
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
    attempts: s.attempts,
    error: s.error,
    reasoning: s.reasoning,
    retry: s.retry,
  };
}

export const createRunSlice: StateCreator<StudioState, [], [], RunSlice> = (set) => ({
  record: emptyRecord(),
  results: {},
  phase: "idle",
  runStepIds: [],
  focus: TOP,
  openKey: null,
  liveId: null,
  exportedAt: null,
  applyEvents: (events) =>
    set((s) => {
      let record = s.record;
      // Only the workflow in focus maps onto the document's steps; other rounds and nested
      // workflows live in the record and are drawn from it.
      const touched = new Set<number>();
      for (const e of events) {
        record = applyEvent(record, e);
        if ("step" in e && inFocus(e, s.focus)) touched.add(e.step);
      }
      if (!touched.size) return { record };
      const results = { ...s.results };
      const round = roundAt(record, s.focus);
      for (const index of touched) {
        const id = s.runStepIds[index];
        const step = round?.steps[index];
        if (id && step) results[id] = resultFromRecord(step);
      }
      return { record, results };
    }),
  setPhase: (phase) => set({ phase }),
  setRunStepIds: (runStepIds) => set({ runStepIds }),
  setFocus: (focus) => set({ focus }),
  setRecord: (record, results) => set({ record, results }),
  setOpen: (open) => set(open),
  markStale: (ids) =>
    set((s) => {
      const results = { ...s.results };
      let changed = false;
      for (const id of ids) {
        const r = results[id];
        if (r && r.status !== "stale" && r.status !== "running" && r.status !== "queued") {
          results[id] = staleCopy(r);
          changed = true;
        }
      }
      return changed ? { results } : {};
    }),
});
