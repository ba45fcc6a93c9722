import { docFromSteps } from "../engine/graph/document.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import type { StepResult } from "./run.ts";
import type { Focus } from "./run.ts";
import { TOP, resultFromRecord, roundAt } from "./run.ts";
import { useStudio } from "./store.ts";

/** Whether a focus is the top level's first round (the default workflow). */
export function isTop(focus: Focus): boolean {
  return focus.parent.length === 0 && focus.round === 0;
}

/** A short name for the workflow in focus, e.g. "Round 2" or "the nested workflow of step 2". */
export function focusLabel(focus: Focus): string {
  const last = focus.parent.at(-1);
  if (!last) return `Round ${focus.round + 1}`;
  const where = focus.parent.length > 1 || last.round > 0 ? ` (round ${last.round + 1})` : "";
  return `the nested workflow of step ${last.step + 1}${where}`;
}

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

/**
 * The events that close a nested workflow re-run in place: the self-selected step that owns it
 * finishes with the new answer (its usage stays as recorded, already counted), and the run's
 * answer changes when that step gives the answer of the top level's last round.
 */
export function nestedRerunEvents(
  record: RunRecord,
  focus: Focus,
  answer: string,
  at: number,
): RunEvent[] {
  const last = focus.parent.at(-1);
  if (!last) return [];
  const up = focus.parent.slice(0, -1);
  const owner = roundAt(record, { parent: up, round: last.round })?.steps[last.step];
  const usage = owner?.usage ?? { promptTokens: 0, completionTokens: 0, estimated: false };
  const finish: RunEvent = {
    type: "step_finish",
    at,
    round: last.round,
    step: last.step,
    output: answer,
    usage,
    cost: owner?.cost ?? 0,
    aggregate: true,
    ...(up.length ? { parent: up } : {}),
  };
  const lastRound = record.rounds.length - 1;
  const givesAnswer =
    up.length === 0 &&
    last.round === lastRound &&
    last.step === (record.rounds[lastRound]?.steps.length ?? 0) - 1;
  return [
    finish,
    {
      type: "run_finish",
      at,
      status: "done",
      reason: "no_rounds",
      answer: givesAnswer ? answer : record.answer,
    },
  ];
}
