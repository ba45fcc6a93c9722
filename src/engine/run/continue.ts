import { workerIdAt } from "../conductor/shown-ids.ts";
import type { ParentPath } from "../schema/events.ts";
import type { KeptRef, RoundRecord, RunRecord } from "../schema/record.ts";
import type { Step } from "../schema/workflow.ts";
import type { Focus } from "./focus.ts";
import { roundAt } from "./focus.ts";

/** What a continuing run starts from: the rounds it carries over and which parts it kept. */
export interface Seed {
  rounds: RoundRecord[];
  kept: KeptRef[];
}

const samePath = (a: ParentPath, b: ParentPath) =>
  a.length === b.length && a.every((p, i) => p.round === b[i]?.round && p.step === b[i]?.step);

/**
 * Every plan and finished step of `rounds` as kept parts, except the steps of the workflow at
 * `open` (the one about to run) that are not in `keep`, and everything inside those; and the plan
 * at `open` when it left neither lists nor steps, since the continuation asks for it again.
 */
function keptParts(
  rounds: readonly RoundRecord[],
  parent: ParentPath,
  open: Focus,
  keep: ReadonlySet<number>,
  out: KeptRef[],
): void {
  for (const round of rounds) {
    const isOpen = samePath(parent, open.parent) && round.index === open.round;
    const planned = round.lists || round.steps.length > 0;
    if (round.plan && (!isOpen || planned)) out.push({ parent, round: round.index, step: null });
    for (const step of round.steps) {
      if (isOpen && !keep.has(step.index)) continue;
      if (step.nested) {
        const path = [...parent, { round: round.index, step: step.index }];
        keptParts(step.nested.rounds, path, open, keep, out);
      } else if (step.status === "done") out.push({ parent, round: round.index, step: step.index });
    }
  }
}

/**
 * The seed of a run that continues `base` at the workflow `at`: the top-level rounds up to the
 * one it runs (a later round's results depended on what is about to change, so they go), all
 * of them for a nested workflow; the steps in `keep` keep their results, the others run again.
 */
export function seedFrom(base: RunRecord, at: Focus, keep: Iterable<number>): Seed {
  const top = at.parent[0]?.round ?? at.round;
  const rounds = base.rounds.slice(0, top + 1);
  const kept: KeptRef[] = [];
  keptParts(rounds, [], at, new Set(keep), kept);
  return { rounds, kept };
}

/**
 * A record as it stands after the page that ran it went away: what was running or queued is
 * interrupted (partial output kept), and so is the run. Finished runs are returned as they are.
 */
export function interrupted(record: RunRecord): RunRecord {
  if (record.status !== "planning" && record.status !== "running") return record;
  const mark = (rounds: RoundRecord[]): RoundRecord[] =>
    rounds.map((round) => ({
      ...round,
      steps: round.steps.map((s) => ({
        ...s,
        status: s.status === "running" || s.status === "queued" ? "interrupted" : s.status,
        nested: s.nested && { ...s.nested, rounds: mark(s.nested.rounds) },
      })),
    }));
  return { ...record, status: "interrupted", rounds: mark(record.rounds) };
}

/** Where Resume picks an interrupted run up: a top-level round to finish, or its plan. */
export type ResumePoint =
  { at: "plan"; round: number } | { at: "round"; round: number; keep: Map<number, string> };

/**
 * The last top-level round that has steps, with the outputs of its finished steps to keep; or
 * that round's plan when it stopped before its steps were known. Resume runs only the rest.
 */
export function resumePoint(record: RunRecord): ResumePoint {
  for (let r = record.rounds.length - 1; r >= 0; r--) {
    const round = record.rounds[r]!;
    if (!round.steps.length) {
      if (round.plan && !round.lists) return { at: "plan", round: r };
      continue;
    }
    const keep = new Map<number, string>();
    for (const s of round.steps) if (s.status === "done") keep.set(s.index, s.output);
    return { at: "round", round: r, keep };
  }
  return { at: "plan", round: 0 };
}

/** The workflow in a recorded round, as steps: its steps, or its plan's lists before it ran. */
export function stepsAt(record: RunRecord, at: Focus): Step[] {
  const round = roundAt(record, at);
  if (round?.steps.length)
    return round.steps.map((s) => ({ worker: s.worker, subtask: s.subtask, access: s.access }));
  const lists = round?.lists;
  if (!lists) return [];
  return lists.model_id.map((n, i) => ({
    worker: workerIdAt(lists.workerIds, n),
    subtask: lists.subtasks[i] ?? "",
    access: lists.access_list[i] ?? [],
  }));
}
