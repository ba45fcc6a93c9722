import { useMemo } from "react";
import type { Worker } from "../engine/schema/worker.ts";
import { formerWorkers } from "../state/run/flow.ts";
import { useStudio } from "../state/slices/store.ts";

/**
 * Workers that may have left the pool (`formerWorkers`), to name steps still on them. Rebuilt only
 * when the pool's undo list or the open run changes, not on every render (a run streams tokens).
 */
export function useFormerWorkers(): Worker[] {
  const poolUndo = useStudio((s) => s.poolUndo);
  const runPool = useStudio((s) => s.record.pool);
  return useMemo(() => formerWorkers(poolUndo, runPool), [poolUndo, runPool]);
}
