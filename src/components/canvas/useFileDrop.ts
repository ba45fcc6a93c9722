import { useMemo, useState } from "react";
import type { DragEvent } from "react";
import { openFile } from "../../state/files.ts";
import { useStudio } from "../../state/store.ts";

/** Dropping an exported run on the canvas opens it; a bad file shows why and changes nothing. */
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
        void openFile(file).then((message) => {
          if (message) useStudio.getState().setNotice(`Could not open ${file.name}: ${message}`);
        });
      },
    }),
    [],
  );
  return { active, handlers };
}
