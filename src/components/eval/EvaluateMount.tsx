import { deferred } from "../ui/deferred.tsx";
import { useStudio } from "../../state/slices/store.ts";

// The Evaluate mode's code (and uPlot, which it imports lazily in turn) loads on first open.
const Evaluate = deferred(() => import("./EvaluateView.tsx").then((m) => m.default));

/** Mounts the Evaluate view while it is open. */
export function EvaluateMount() {
  const open = useStudio((s) => s.evalOpen);
  return open ? <Evaluate.Component /> : null;
}

/** The header's button that opens the Evaluate view. */
export function EvaluateButton() {
  return (
    <button
      type="button"
      data-testid="open-evaluate"
      onClick={() => useStudio.getState().setEvalOpen(true)}
    >
      Evaluate
    </button>
  );
}
