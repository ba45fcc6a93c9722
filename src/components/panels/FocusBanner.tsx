import { focusLabel, focusTop, isTop } from "../../state/slices/focus.ts";
import { useStudio } from "../../state/slices/store.ts";

/** Says which workflow of the run the editor holds when it is not the first round, with a way back. */
export function FocusBanner() {
  const focus = useStudio((s) => s.focus);
  const phase = useStudio((s) => s.phase);
  if (isTop(focus)) return null;
  return (
    <div className="focus-banner" data-testid="focus-banner">
      <span>
        Editing <strong>{focusLabel(focus)}</strong>. Run re-runs it in place, with what it saw
        during the run.
      </span>
      <button type="button" data-testid="focus-top" disabled={phase !== "idle"} onClick={focusTop}>
        ← Back to round 1
      </button>
    </div>
  );
}
