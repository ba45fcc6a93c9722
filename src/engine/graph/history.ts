import { deepEqual } from "./equal.ts";

/**
 * Undo/redo over immutable values. `group` is the key of the last push: a push with the same key
 * replaces `present` instead of adding an undo step, so a whole drag or a burst of typing undoes at once.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  group?: string;
}

export interface PushOptions<T> {
  /** Most undo steps kept; the oldest are dropped. */
  limit?: number;
  /** When `next` counts as no change. Default: structural equality. */
  equals?: (a: T, b: T) => boolean;
}

/**
 * Whether a replacement of the present is recorded as an undo step (`Undoable`) or overwrites the
 * present in place (`Skip`), as Excalidraw's `CaptureUpdateAction` names it.
 */
export const Capture = { Undoable: "undoable", Skip: "skip" } as const;
export type Capture = (typeof Capture)[keyof typeof Capture];

/** Default cap on undo steps. */
export const HISTORY_LIMIT = 200;

/** A history with nothing to undo or redo. */
export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/**
 * Records `next` as the present. Equal to the present: no-op (the same history). The same non-empty
 * `groupKey` as the previous push (e.g. "drag:<id>", "subtask:<id>"): folds into that undo step.
 * Otherwise the present becomes an undo step. Either way the redo stack is cleared.
 */
export function push<T>(
  h: History<T>,
  next: T,
  groupKey?: string,
  options: PushOptions<T> = {},
): History<T> {
  const equals = options.equals ?? deepEqual;
  if (equals(h.present, next)) return h;
  const group = groupKey || undefined;
  if (group !== undefined && group === h.group)
    return { past: h.past, present: next, future: [], group };
  const limit = Math.max(0, options.limit ?? HISTORY_LIMIT);
  const past = [...h.past, h.present];
  return { past: past.slice(Math.max(0, past.length - limit)), present: next, future: [], group };
}

/** Ends the current group, so the next push with the same key starts a new undo step (drag end, blur). */
export function endGroup<T>(h: History<T>): History<T> {
  return h.group === undefined ? h : { past: h.past, present: h.present, future: h.future };
}

/** Whether there is a step to undo. */
export function canUndo<T>(h: History<T>): boolean {
  return h.past.length > 0;
}

/** Whether there is a step to redo. */
export function canRedo<T>(h: History<T>): boolean {
  return h.future.length > 0;
}

/** Steps back one undo step; unchanged when there is none. Ends any group. */
export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  // Checked non-empty above; T itself may include undefined, so no undefined test.
  const previous = h.past[h.past.length - 1] as T;
  return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future] };
}

/** Steps forward one redo step; unchanged when there is none. Ends any group. */
export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  const [next, ...future] = h.future as [T, ...T[]];
  return { past: [...h.past, h.present], present: next, future };
}
