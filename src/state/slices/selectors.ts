// The store's selectors, defined once at module level.
import type { StudioState } from "./studio-state.ts";

/** Selectors defined once at module level, so components subscribe to small, stable slices. */
export const selectDoc = (s: StudioState) => s.history.present;
export const selectPool = (s: StudioState) => s.pool;
export const selectResults = (s: StudioState) => s.results;
export const selectPhase = (s: StudioState) => s.phase;
export const selectSelectedIds = (s: StudioState) => s.selectedIds;
export const selectNotice = (s: StudioState) => s.notice;
export const selectQuestion = (s: StudioState) => s.question;
export const selectRecord = (s: StudioState) => s.record;
export const selectCanUndo = (s: StudioState) => s.history.past.length > 0;
export const selectCanRedo = (s: StudioState) => s.history.future.length > 0;
export const selectPlan = (s: StudioState) => s.record.rounds[0]?.plan ?? null;
/** Why the Conductor's plan failed when a worker answered alone instead (Conductor settings). */
export const selectFallback = (s: StudioState) => s.record.rounds[0]?.fallback ?? null;
/** The name of that worker, as the run's pool has it. */
export const selectFallbackName = (s: StudioState) => {
  const id = s.record.rounds[0]?.fallback?.worker;
  return id === undefined ? null : (s.record.pool.find((w) => w.id === id)?.name ?? id);
};

/** A plan or run in flight while the screen shows another run (an import, a History row). */
export const selectInBackground = (s: StudioState) =>
  s.phase !== "idle" && s.liveId !== null && s.record.id !== s.liveId;
