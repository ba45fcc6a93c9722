import { useMemo, useState } from "react";
import type { DragEvent } from "react";
import { openUserFile } from "../files/openFile.ts";
import { importFiles } from "../../state/run/imports.ts";

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
        const files = [...e.dataTransfer.files];
        setActive(false);
        if (!files.length) return;
        e.preventDefault();
        // One file may be a large run or a pool file (openUserFile asks); several are runs.
        if (files.length === 1 && files[0]) openUserFile(files[0]);
        else void importFiles(files);
      },
    }),
    [],
  );
  return { active, handlers };
}
