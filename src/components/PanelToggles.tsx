import { setHistoryOpen } from "../state/run/historyController.ts";
import { useStudio } from "../state/slices/store.ts";
import { useLayoutMode } from "./useLayoutMode.ts";

/**
 * Where a side panel is a drawer (a narrow window), the header's buttons that show and hide it:
 * "Question" for the left one (question, Conductor, answer), "Inspector" for the right one.
 */
export function PanelToggles() {
  const mode = useLayoutMode();
  const drawers = useStudio((s) => s.drawers);
  const historyOpen = useStudio((s) => s.historyOpen);
  if (mode === "wide") return null;
  const { setDrawer } = useStudio.getState();
  const inspectorShown = drawers.right && !historyOpen;
  return (
    <>
      {mode === "narrow" && (
        <button
          type="button"
          data-testid="toggle-left"
          aria-pressed={drawers.left}
          aria-controls="left-panel"
          onClick={() => setDrawer("left", !drawers.left, true)}
        >
          Question
        </button>
      )}
      <button
        type="button"
        data-testid="toggle-right"
        aria-pressed={inspectorShown}
        aria-controls="right-panel"
        onClick={() => {
          // The right drawer shows History while it is open; "Inspector" switches back to it.
          if (historyOpen) setHistoryOpen(false);
          setDrawer("right", !inspectorShown, mode === "narrow");
        }}
      >
        Inspector
      </button>
    </>
  );
}
