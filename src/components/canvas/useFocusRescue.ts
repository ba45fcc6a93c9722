import { useEffect, useRef } from "react";
import type { RefObject } from "react";
import { useStudio } from "../../state/slices/store.ts";

/** Where focus was last inside the editor: the canvas or the inspector, and on which step. */
interface LastFocus {
  /** The step whose node had focus (null: elsewhere in the canvas or the inspector). */
  stepId: string | null;
  /** The document's step order then, to find a neighbour once the step has gone. */
  order: readonly string[];
}

const EDITOR = '[data-testid="canvas"], [data-testid="inspector"]';

const nodeOf = (canvas: HTMLElement, id: string) =>
  canvas.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);

/**
 * The step to focus after `gone` left: the first selected step, else the one after it in the old
 * order, else the one before (a keyboard user goes on from where they were).
 */
function neighbour(last: LastFocus, present: ReadonlySet<string>, selected: readonly string[]) {
  const chosen = selected.find((id) => present.has(id));
  if (chosen) return chosen;
  const at = last.stepId ? last.order.indexOf(last.stepId) : -1;
  if (at < 0) return null;
  const after = last.order.slice(at + 1).find((id) => present.has(id));
  return after ?? [...last.order.slice(0, at)].reverse().find((id) => present.has(id)) ?? null;
}

/**
 * Keeps the keyboard's place when an edit takes away the focused element (Delete on a node or the
 * inspector's Delete, an undo or redo that removes the step in focus): instead of falling to the
 * page, focus goes to a neighbouring step's node, or to the canvas when none is left.
 */
export function useFocusRescue(canvas: RefObject<HTMLElement | null>): void {
  const doc = useStudio((s) => s.history.present);
  const last = useRef<LastFocus | null>(null);

  useEffect(() => {
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (!target?.closest(EDITOR)) {
        last.current = null;
        return;
      }
      const node = target.closest(".react-flow__node");
      last.current = {
        stepId: node?.getAttribute("data-id") ?? null,
        order: useStudio.getState().history.present.steps.map((s) => s.id),
      };
    };
    document.addEventListener("focusin", onFocusIn);
    return () => document.removeEventListener("focusin", onFocusIn);
  }, []);

  useEffect(() => {
    // After the edit is drawn: the element that had focus is gone from the page by then.
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      const wrapper = canvas.current;
      if (!wrapper || !last.current || (active && active !== document.body)) return;
      const present = new Set(doc.steps.map((s) => s.id));
      const id = neighbour(last.current, present, useStudio.getState().selectedIds);
      const target = (id && nodeOf(wrapper, id)) || wrapper;
      target.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [doc, canvas]);
}
