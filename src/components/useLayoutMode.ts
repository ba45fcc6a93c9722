import { useSyncExternalStore } from "react";

/**
 * How the studio lays out its panels at the window's width: `wide`, three columns; `medium`, the
 * right panel (inspector, history) a drawer over the canvas; `narrow`, both side panels drawers.
 * Nothing is ever laid out wider than the window.
 */
export type LayoutMode = "wide" | "medium" | "narrow";

/** Below these widths (CSS pixels) the right, then also the left panel become drawers. */
export const WIDE_MIN = 1200;
export const MEDIUM_MIN = 900;

const QUERIES = [`(min-width: ${WIDE_MIN}px)`, `(min-width: ${MEDIUM_MIN}px)`];

function mode(): LayoutMode {
  if (typeof window === "undefined" || !window.matchMedia) return "wide";
  const [wide, medium] = QUERIES.map((q) => window.matchMedia(q).matches);
  return wide ? "wide" : medium ? "medium" : "narrow";
}

function subscribe(onChange: () => void): () => void {
  if (typeof window === "undefined" || !window.matchMedia) return () => {};
  const lists = QUERIES.map((q) => window.matchMedia(q));
  for (const l of lists) l.addEventListener("change", onChange);
  return () => {
    for (const l of lists) l.removeEventListener("change", onChange);
  };
}

/** The current layout mode; re-renders when the window crosses a breakpoint. */
export function useLayoutMode(): LayoutMode {
  return useSyncExternalStore(subscribe, mode, () => "wide");
}
