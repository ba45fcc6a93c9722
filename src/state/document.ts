import type { StateCreator } from "zustand";
import type { WorkflowDoc } from "../engine/graph/document.ts";
import { emptyDoc } from "../engine/graph/document.ts";
import type { Edit } from "../engine/graph/edit.ts";
import { applyEdit } from "../engine/graph/edit.ts";
import { staleAfterEdit } from "../engine/graph/edges.ts";
import type { History } from "../engine/graph/history.ts";
import { createHistory, endGroup, push, redo, undo } from "../engine/graph/history.ts";
import type { StudioState } from "./store.ts";

export interface DocumentSlice {
  question: string;
  /** The document (steps and user-set positions) with its undo history. */
  history: History<WorkflowDoc>;
  selectedIds: string[];
  /** The last message for the user about an edit (a refused edge, say), cleared by the next edit. */
  notice: string | null;
  setQuestion: (question: string) => void;
  /** Applies an edit as an undo step (folded into the previous one when `group` matches). */
  edit: (edit: Edit, group?: string) => boolean;
  /** Replaces the document, e.g. with a Conductor plan; `undoable` records the old one first. */
  replaceDoc: (doc: WorkflowDoc, undoable: boolean) => void;
  endEditGroup: () => void;
  /** Starts editing another workflow: a fresh undo history, nothing selected. */
  resetDoc: (doc: WorkflowDoc) => void;
  undo: () => void;
  redo: () => void;
  select: (ids: string[]) => void;
  setNotice: (notice: string | null) => void;
}

export const createDocumentSlice: StateCreator<StudioState, [], [], DocumentSlice> = (
  set,
  get,
) => ({
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
    get().markStale(staleAfterEdit(history.present, result.doc));
    set({
      history: push(history, result.doc, group),
      notice: null,
      ...(result.created.length ? { selectedIds: result.created } : {}),
    });
    return true;
  },
  replaceDoc: (doc, undoable) =>
    set((s) => ({
      history: undoable ? push(endGroup(s.history), doc) : { ...s.history, present: doc },
      selectedIds: s.selectedIds.filter((id) => doc.steps.some((st) => st.id === id)),
    })),
  endEditGroup: () => set((s) => ({ history: endGroup(s.history) })),
  resetDoc: (doc) => set({ history: createHistory(doc), selectedIds: [], notice: null }),
  undo: () => {
    const before = get().history.present;
    const history = undo(get().history);
    get().markStale(staleAfterEdit(before, history.present));
    set({ history, notice: null });
  },
  redo: () => {
    const before = get().history.present;
    const history = redo(get().history);
    get().markStale(staleAfterEdit(before, history.present));
    set({ history, notice: null });
  },
  select: (selectedIds) => set({ selectedIds }),
  setNotice: (notice) => set({ notice }),
});
