import { Suspense, lazy } from "react";
import { useEval } from "../../state/eval.ts";

// The Evaluate mode's code (and uPlot, which it imports lazily in turn) loads on first open.
const EvaluateView = lazy(() => import("./EvaluateView.tsx"));

/** Mounts the Evaluate view while it is open. */
export function EvaluateMount() {
  const open = useEval((s) => s.open);
  return open ? (
    <Suspense fallback={null}>
      <EvaluateView />
    </Suspense>
  ) : null;
}

/** The header's button that opens the Evaluate view. */
export function EvaluateButton() {
  return (
    <button
      type="button"
      data-testid="open-evaluate"
      onClick={() => useEval.getState().setOpen(true)}
    >
      Evaluate
    </button>
  );
}
