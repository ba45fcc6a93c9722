// Puts a recorded round or nested workflow in the editor (focus), or the top level back.
import { docFromSteps } from "../../engine/graph/document.ts";
import type { StepResult } from "./run.ts";
import type { Focus } from "./run.ts";
import { TOP, resultFromRecord, roundAt } from "./run.ts";
import { useStudio } from "./store.ts";

export { focusLabel, isTop } from "../../engine/run/focus.ts";

/**
 * Puts a recorded workflow (a later round, or a self-selected step's nested workflow) in the
 * editor, with its results, so it can be edited like any other and re-run in place.
 */
export function focusOn(focus: Focus): void {
  const s = useStudio.getState();
  if (s.phase !== "idle") return;
  const round = roundAt(s.record, focus);
  if (!round?.steps.length) return s.setNotice("That workflow is not in this run's record.");
  const doc = docFromSteps(
    round.steps.map((st) => ({ worker: st.worker, subtask: st.subtask, access: st.access })),
  );
  const results: Record<string, StepResult> = {};
  round.steps.forEach((st, i) => {
    const id = doc.steps[i]?.id;
    if (id && st.status !== "idle") results[id] = resultFromRecord(st);
  });
  s.setFocus(focus);
  s.setRunStepIds(doc.steps.map((st) => st.id));
  s.setRecord(s.record, results);
  s.resetDoc(doc);
}

/** Back to the top level's first round. */
export function focusTop(): void {
  focusOn(TOP);
}
