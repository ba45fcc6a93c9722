// What undo and redo remember of the run shown beside the document.
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import type { RunView, StepResult, StudioState } from "./studio-state.ts";
export type { RunView } from "./studio-state.ts";

/*
 * What undo and redo need besides the documents themselves: the results each document was left
 * with, and the run shown before a document replaced the whole run (an import, an opened run, a
 * plan). Kept beside the undo history rather than in it: the history holds documents only (what
 * export sees), and these are looked up by the very document objects it holds, so they go when
 * the history drops them.
 */

/** A stale copy of a result -> the result it was made from (run.ts markStale). */
const staleOrigin = new WeakMap<StepResult, StepResult>();

/** A document -> the results when the studio last moved away from it. */
const resultsLeft = new WeakMap<WorkflowDoc, Record<string, StepResult>>();

/** Undoing back to this (past) document shows this run again. */
const runBefore = new WeakMap<WorkflowDoc, RunView>();
/** Redoing forward to this (future) document shows this run again. */
const runAfter = new WeakMap<WorkflowDoc, RunView>();

/** The stale copy of a result, remembered so that an undo can give the result back as it was. */
export function staleCopy(result: StepResult): StepResult {
  const copy: StepResult = { ...result, status: "stale" };
  staleOrigin.set(copy, result);
  return copy;
}

/** Notes the results the studio leaves a document with (before an edit, undo or redo). */
export function leaving(doc: WorkflowDoc, results: Record<string, StepResult>): void {
  resultsLeft.set(doc, results);
}

/**
 * The results on arriving back at a document by undo or redo: a result that was only marked
 * stale since the studio left it (no run in between) gets its old status back, exactly.
 */
export function arriving(
  doc: WorkflowDoc,
  results: Record<string, StepResult>,
): Record<string, StepResult> {
  const left = resultsLeft.get(doc);
  if (!left) return results;
  let out = results;
  for (const [id, now] of Object.entries(results)) {
    const was = left[id];
    if (!was || was === now) continue;
    let origin = staleOrigin.get(now);
    // A result marked stale twice over points through each copy to the one it came from.
    while (origin && origin !== was) origin = staleOrigin.get(origin);
    if (origin !== was) continue;
    if (out === results) out = { ...results };
    out[id] = was;
  }
  return out;
}

/** The run view of the store. */
export function runViewOf(s: StudioState): RunView {
  const { record, results, runStepIds, openKey, exportedAt, question, focus } = s;
  return { record, results, runStepIds, openKey, exportedAt, question, focus };
}

/** Notes that `previous` (now the last undo step) was shown with `view`, before a run replaced it. */
export function runReplaced(previous: WorkflowDoc, view: RunView): void {
  runBefore.set(previous, view);
}

/**
 * The run to show on undoing from `present` to `previous`, if a run replaced it there; `now`,
 * what is shown, is kept for a redo.
 */
export function runOnUndo(previous: WorkflowDoc, present: WorkflowDoc, now: RunView) {
  const view = runBefore.get(previous);
  if (view) runAfter.set(present, now);
  return view;
}

/** The run to show on redoing from `present` to `next`, if an undo took it away. */
export function runOnRedo(present: WorkflowDoc, next: WorkflowDoc, now: RunView) {
  const view = runAfter.get(next);
  if (view) runBefore.set(present, now);
  return view;
}
