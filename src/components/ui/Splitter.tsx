import { useCallback } from "react";
import type { PointerEvent } from "react";

/** A vertical drag handle that resizes the panel beside it; `onResize` gets the pointer's x delta. */
export function Splitter({ onResize, label }: { onResize: (dx: number) => void; label: string }) {
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
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      onPointerDown={onPointerDown}
    />
  );
}
