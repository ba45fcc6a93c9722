// The store's document slice: the workflow document, its edits and undo/redo.
import type { StateCreator } from "zustand";
import type { WorkflowDoc } from "../../engine/graph/document.ts";
import { emptyDoc } from "../../engine/graph/document.ts";
import { applyEdit } from "../../engine/graph/edit.ts";
import { staleAfterEdit } from "../../engine/graph/edges.ts";
import type { History } from "../../engine/graph/history.ts";
import { Capture, createHistory, endGroup, push, redo, undo } from "../../engine/graph/history.ts";
import type { RunView } from "./undoMemory.ts";
import { arriving, leaving, runOnRedo, runOnUndo, runReplaced, runViewOf } from "./undoMemory.ts";
import type { StudioState, DocumentSlice } from "./studio-state.ts";
export type { DocumentSlice } from "./studio-state.ts";

export const createDocumentSlice: StateCreator<StudioState, [], [], DocumentSlice> = (set, get) => {
  /**
   * Moves to another point of the undo history: the run shown there whole when one replaced it,
   * else the results marked stale where the steps differ and given back where only marked since.
   */
  const arrive = (before: WorkflowDoc, history: History<WorkflowDoc>, run: RunView | null) => {
    leaving(before, get().results);
    if (run) return set({ ...run, history, notice: null });
    get().markStale(staleAfterEdit(before, history.present));
    set({ history, notice: null, results: arriving(history.present, get().results) });
  };
  return {
    question: "",
    history: createHistory(emptyDoc()),
    selectedIds: [],
    notice: null,
    setQuestion: (question) => set({ question }),
    edit: (edit, group) => {
      const { history } = get();
      const result = applyEdit(history.present, edit);
      if (!result.ok) {
        set({ notice: result.message });
        return false;
      }
      if (result.doc === history.present) return true;
      leaving(history.present, get().results);
      get().markStale(staleAfterEdit(history.present, result.doc));
      set({
        history: push(history, result.doc, group),
        notice: null,
        ...(result.created.length ? { selectedIds: result.created } : {}),
      });
      return true;
    },
    replaceDoc: (doc, capture, runBefore) =>
      set((s) => {
        // A new run is an undo step even where its workflow equals the one shown.
        const options = runBefore ? { equals: () => false } : {};
        const history =
          capture === Capture.Undoable
            ? push(endGroup(s.history), doc, undefined, options)
            : { ...s.history, present: doc };
        if (runBefore && history !== s.history && history.past.at(-1) === s.history.present)
          runReplaced(s.history.present, runBefore);
        return {
          history,
          selectedIds: s.selectedIds.filter((id) => doc.steps.some((st) => st.id === id)),
        };
      }),
    endEditGroup: () => set((s) => ({ history: endGroup(s.history) })),
    resetDoc: (doc) => set({ history: createHistory(doc), selectedIds: [], notice: null }),
    undo: () => {
      const before = get().history.present;
      const history = undo(get().history);
      if (history === get().history) return;
      // A run in flight goes on into its own record: only the document steps back.
      const run = get().phase === "idle" && runOnUndo(history.present, before, runViewOf(get()));
      arrive(before, history, run || null);
    },
    redo: () => {
      const before = get().history.present;
      const history = redo(get().history);
      if (history === get().history) return;
      const run = get().phase === "idle" && runOnRedo(before, history.present, runViewOf(get()));
      arrive(before, history, run || null);
    },
    select: (selectedIds) => set({ selectedIds }),
    setNotice: (notice) => set({ notice }),
  };
};
