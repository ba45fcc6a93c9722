import { useEffect } from "react";
import type { ClipStep } from "../engine/graph/clipboard.ts";
import { copySteps } from "../engine/graph/clipboard.ts";
import { runNow } from "../state/run/controller.ts";
import { useStudio } from "../state/slices/store.ts";
import { modalOpen } from "./ui/modalLayer.ts";

/** Copied steps live in the page: a document's steps are meaningless outside the studio. */
let clipboard: ClipStep[] = [];

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Studio shortcuts: Ctrl/Cmd+Enter runs (also from a field); undo, redo, copy and paste of steps
 * are ignored while typing in a field, where the browser's own text undo and clipboard apply.
 * They act only on what is visible: while a full-screen view or dialog covers the studio, none do.
 */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || modalOpen()) return;
      const key = e.key.toLowerCase();
      if (key === "enter") {
        e.preventDefault();
        void runNow();
        return;
      }
      if (typingIn(e.target)) return;
      const st = useStudio.getState();
      if (key === "z" && !e.shiftKey) st.undo();
      else if ((key === "z" && e.shiftKey) || key === "y") st.redo();
      else if (key === "c" && st.selectedIds.length)
        clipboard = copySteps(st.history.present, st.selectedIds);
      else if (key === "v" && clipboard.length) st.edit({ kind: "paste", steps: clipboard });
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
