import { useEffect, useRef } from "react";
import { selectPhase, selectSelectedIds } from "../state/slices/selectors.ts";
import { useStudio } from "../state/slices/store.ts";
import type { LayoutMode } from "./useLayoutMode.ts";

/**
 * Where the side panels are drawers, they follow what the user does: selecting a step opens the
 * inspector (what it shows), and a finished plan closes the question drawer of a narrow window so
 * the graph it drew is in view. In a narrow window only one drawer is open at a time.
 */
export function useDrawerFollowsWork(mode: LayoutMode): void {
  const selected = useStudio(selectSelectedIds).length > 0;
  const phase = useStudio(selectPhase);
  const hasSteps = useStudio((s) => s.history.present.steps.length > 0);
  const lastPhase = useRef(phase);
  useEffect(() => {
    if (selected && mode !== "wide")
      useStudio.getState().setDrawer("right", true, mode === "narrow");
  }, [selected, mode]);
  useEffect(() => {
    const was = lastPhase.current;
    lastPhase.current = phase;
    if (mode === "narrow" && was === "planning" && phase !== "planning" && hasSteps)
      useStudio.getState().setDrawer("left", false);
  }, [phase, mode, hasSteps]);
  // A run opened from a file or an example: in a narrow window the graph is what it brings, so
  // the Question drawer steps aside (it stays one click away in the header).
  const runId = useStudio((s) => s.record.id);
  const lastRun = useRef(runId);
  useEffect(() => {
    const was = lastRun.current;
    lastRun.current = runId;
    if (mode === "narrow" && was !== runId && hasSteps)
      useStudio.getState().setDrawer("left", false);
  }, [runId, mode, hasSteps]);
}
