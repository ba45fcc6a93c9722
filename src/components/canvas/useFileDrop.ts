import { useMemo, useState } from "react";
import type { DragEvent } from "react";
import { openUserFile } from "../files/openFile.ts";

/** Dropping an exported run (or a pool file) on the canvas opens it; a bad file shows why and changes nothing. */
export function useFileDrop() {
  const [active, setActive] = useState(false);
  const handlers = useMemo(
    () => ({
      onDragOver: (e: DragEvent) => {
        if (!e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        setActive(true);
      },
      onDragLeave: () => setActive(false),
      onDrop: (e: DragEvent) => {
        const file = e.dataTransfer.files[0];
        setActive(false);
        if (!file) return;
        e.preventDefault();
        openUserFile(file);
      },
    }),
    [],
  );
  return { active, handlers };
}
