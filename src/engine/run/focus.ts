import type { ParentPath, RunEvent } from "../schema/events.ts";
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import type { PriorStep } from "../exec/messages.ts";

/**
 * Which workflow of a run is meant: a round of the top level or of a nested workflow
 * (docs/protocol.md §1.6). The top level's first round is `{ parent: [], round: 0 }`.
 */
export interface Focus {
  parent: ParentPath;
  round: number;
}
export const TOP: Focus = { parent: [], round: 0 };

/** Whether a focus is the top level's first round (the default workflow). */
export function isTop(focus: Focus): boolean {
  return focus.parent.length === 0 && focus.round === 0;
}

/** A short name for a workflow, e.g. "Round 2" or "the nested workflow of step 2". */
export function focusLabel(focus: Focus): string {
  const last = focus.parent.at(-1);
  if (!last) return `Round ${focus.round + 1}`;
  const where = focus.parent.length > 1 || last.round > 0 ? ` (round ${last.round + 1})` : "";
  return `the nested workflow of step ${last.step + 1}${where}`;
}

/** Whether an event belongs to the workflow at `focus`. */
export function inFocus(e: { round: number; parent?: ParentPath }, focus: Focus): boolean {
  const parent = e.parent ?? [];
  return (
    e.round === focus.round &&
    parent.length === focus.parent.length &&
    parent.every((p, i) => p.round === focus.parent[i]?.round && p.step === focus.parent[i]?.step)
  );
}

/** The recorded round a focus points at, if the record has it. */
export function roundAt(record: Pick<RunRecord, "rounds">, focus: Focus): RoundRecord | undefined {
  let rounds = record.rounds;
  for (const p of focus.parent) {
    const nested = rounds[p.round]?.steps[p.step]?.nested;
    if (!nested) return undefined;
    rounds = nested.rounds;
  }
  return rounds[focus.round];
}

/**
 * A recorded round's steps with their outputs, as the next round sees them (docs/protocol.md §1.6).
 */
export function priorOf(round: RoundRecord | undefined): PriorStep[] | undefined {
  return round?.steps.map((s) => ({
    worker: s.worker,
    subtask: s.subtask,
    output: s.status === "done" ? s.output : "",
  }));
}

/** The question a workflow answers: the run's, or a nested workflow's own. */
export function questionAt(record: RunRecord, focus: Focus): string {
  const last = focus.parent.at(-1);
  if (!last) return record.question;
  const owner = roundAt(record, { parent: focus.parent.slice(0, -1), round: last.round })?.steps[
    last.step
  ];
  return owner?.nested?.question ?? record.question;
}

/**
 * What closes a nested workflow re-run in place: the self-selected step that owns it finishes
 * with the new answer (its usage is the sum of its nested calls, counted as they happened), and
 * the answer of the run changes when that step gives the answer of the top level's last round.
 */
export function nestedOwnerFinish(
  record: RunRecord,
  focus: Focus,
  answer: string,
  at: number,
): { event: RunEvent | null; runAnswer: string | null } {
  const last = focus.parent.at(-1);
  if (!last) return { event: null, runAnswer: answer };
  const up = focus.parent.slice(0, -1);
  const owner = roundAt(record, { parent: up, round: last.round })?.steps[last.step];
  const usage = owner?.usage ?? { promptTokens: 0, completionTokens: 0, estimated: false };
  const event: RunEvent = {
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
  return { event, runAnswer: givesAnswer ? answer : record.answer };
}
