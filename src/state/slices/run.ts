// The store's run slice: the run record on screen, its phase and each step's latest result.
import type { StateCreator } from "zustand";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { Focus } from "../../engine/run/focus.ts";
import { TOP, inFocus, roundAt } from "../../engine/run/focus.ts";
import type { RetryState, RunRecord, StepStatus } from "../../engine/schema/record.ts";
import type { ChatMessage, Usage } from "../../engine/schema/usage.ts";
import { applyEvent, emptyRecord } from "../../engine/run/record.ts";
import type { StudioState } from "./store.ts";
import { staleCopy } from "./undoMemory.ts";

/** What the canvas shows of one step's latest run, keyed by the step's stable id. */
export interface StepResult {
  status: StepStatus;
  output: string;
  messages: ChatMessage[];
  usage: Usage | null;
  cost: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  attempts: number;
  error: { code: string; message: string } | null;
  /** The worker's reasoning, kept apart from `output`. */
  reasoning?: string;
  /** Set while the step waits to retry. */
  retry?: RetryState | null;
}

export type Phase = "idle" | "planning" | "running";

export type { Focus } from "../../engine/run/focus.ts";
export { TOP, inFocus, roundAt } from "../../engine/run/focus.ts";

export interface RunSlice {
  /** The run record export sees: every event of the current run, folded. */
  record: RunRecord;
  /** Latest results per step id; survives edits (marked stale) until the next run replaces them. */
  results: Record<string, StepResult>;
  phase: Phase;
  /** Step ids of the running round, by index: maps engine events (indices) onto the document. */
  runStepIds: string[];
  /** The workflow the editor holds; events of other workflows only update the record. */
  focus: Focus;
  /** The stored key of the run on screen (null: nothing stored yet). */
  openKey: string | null;
  /** The run in flight, whether or not it is the one on screen. */
  liveId: string | null;
  /** When the run on screen was written, so that exporting it again gives the same file. */
  exportedAt: string | null;
  /** Applies a batch of the open run's events (flushed once per animation frame). */
  applyEvents: (events: RunEvent[]) => void;
  setPhase: (phase: Phase) => void;
  setRunStepIds: (ids: string[]) => void;
  setFocus: (focus: Focus) => void;
  setRecord: (record: RunRecord, results: Record<string, StepResult>) => void;
  setOpen: (open: Partial<Pick<RunSlice, "openKey" | "liveId" | "exportedAt">>) => void;
  markStale: (ids: Iterable<string>) => void;
}

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
