import { useCallback } from "react";
import type { KeyboardEvent, PointerEvent } from "react";

/** How far one arrow key press moves a splitter, in pixels (Shift: four times as far). */
export const SPLITTER_STEP = 16;

/**
 * A vertical drag handle that resizes the panel beside it; `onResize` gets the pointer's x delta.
 * It is a focusable separator: arrow keys move it, and it announces the panel's width.
 */
export function Splitter({
  onResize,
  label,
  value,
  min,
  max,
}: {
  onResize: (dx: number) => void;
  label: string;
  value?: number;
  min?: number;
  max?: number;
}) {
  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLDivElement>) => {
      e.preventDefault();
      let lastX = e.clientX;
      const move = (ev: globalThis.PointerEvent) => {
        onResize(ev.clientX - lastX);
        lastX = ev.clientX;
      };
      const up = () => {
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", up);
      };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
    },
    [onResize],
  );
  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      const step = e.shiftKey ? SPLITTER_STEP * 4 : SPLITTER_STEP;
      if (e.key === "ArrowLeft") onResize(-step);
      else if (e.key === "ArrowRight") onResize(step);
      else return;
      e.preventDefault();
    },
    [onResize],
  );
  return (
    <div
      className="splitter"
      role="separator"
      tabIndex={0}
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={min}
      aria-valuemax={max}
      data-testid="splitter"
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
