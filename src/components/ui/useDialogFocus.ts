import { useEffect } from "react";
import type { RefObject } from "react";
import { enterModalLayer, isTopLayer, topLayer } from "./modalLayer.ts";

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), summary';

/**
 * A modal dialog's (or full-screen view's) keyboard contract: the rest of the page is inert while
 * it is open, it takes focus when it opens, Tab and Shift+Tab stay inside it, Escape closes it, and
 * focus goes back to where it was (the button that opened it).
 */
export function useDialogFocus(
  ref: RefObject<HTMLElement | null>,
  onClose: () => void,
  /** Where focus goes when what had it is gone (or was the page itself): a selector. */
  fallback?: string,
): void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const leave = enterModalLayer(dialog);
    dialog.focus();
    const visible = () =>
      [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
    const onKey = (e: KeyboardEvent) => {
      // Only the topmost layer answers: Escape in a key prompt over Evaluate closes the prompt.
      if (!isTopLayer(dialog)) return;
      if (e.key === "Escape") {
        // A part that closes itself on Escape (an item opened inside Evaluate) goes first.
        if (e.target instanceof Element && e.target.closest("[data-own-escape]")) return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
        return;
      }
      if (e.key !== "Tab") return;
      const items = visible();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return e.preventDefault();
      const active = document.activeElement;
      if (e.shiftKey && (active === first || active === dialog)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      leave();
      const back =
        before?.isConnected && before !== document.body
          ? before
          : fallback
            ? document.querySelector<HTMLElement>(fallback)
            : null;
      // Under a layer still open (Settings opened from Evaluate), focus goes back into that layer.
      const under = topLayer();
      if (under && !(back && under.contains(back))) under.focus();
      else back?.focus();
    };
  }, [ref, onClose, fallback]);
}
