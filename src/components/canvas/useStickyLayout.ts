import { useMemo, useState } from "react";
import type { Position, WorkflowDoc } from "../../engine/graph/document.ts";
import { layoutDoc, stickyLayout } from "../../engine/graph/layout.ts";
import { useStudio } from "../../state/slices/store.ts";

/**
 * Where the canvas draws each step. Automatic positions stick once given, so drawing an edge moves
 * nothing; they are laid out anew while a plan streams in, for a workflow with none of the steps
 * before (a new plan, an import), and on "Tidy up". User-set positions always win.
 */
export function useStickyLayout(doc: WorkflowDoc, planning: boolean): Record<string, Position> {
  const epoch = useStudio((s) => s.layoutEpoch);
  // A mutable box, not state: the automatic positions are a cache of the layout, not something to
  // render from.
  const [box] = useState(() => ({ auto: {}, epoch }));
  return useMemo(() => {
    const unplaced = { ...doc, positions: {} };
    const known = doc.steps.some((s) => s.id in box.auto);
    const fresh = planning || !known || epoch !== box.epoch;
    const auto = fresh ? layoutDoc(unplaced) : stickyLayout(unplaced, box.auto);
    box.auto = auto;
    box.epoch = epoch;
    const positions: Record<string, Position> = {};
    for (const step of doc.steps) positions[step.id] = doc.positions[step.id] ?? auto[step.id]!;
    return positions;
  }, [doc, planning, epoch, box]);
}
