import type { ParentPath } from "../schema/events.ts";
import type {
  NestedRecord,
  PlanRecord,
  RoundRecord,
  RunRecord,
  StepRecord,
} from "../schema/record.ts";
import { emptyRound } from "./record-parts.ts";

// Where an event lands in a record: a round, step or plan at some nesting path, each update a
// new record (the input is never mutated).

/**
 * Applies `f` to the rounds at `path`: the top level when it is empty, else the nested workflow of
 * the step it names (created on first use). Unknown rounds or steps leave the record unchanged.
 */
function updateRounds(
  rounds: RoundRecord[],
  path: ParentPath,
  f: (rounds: RoundRecord[]) => RoundRecord[],
  depth = 1,
): RoundRecord[] {
  const [head, ...rest] = path;
  if (!head) return f(rounds);
  const round = rounds[head.round];
  const step = round?.steps[head.step];
  if (!round || !step) return rounds;
  const nested: NestedRecord = step.nested ?? {
    depth,
    question: step.messages.findLast((m) => m.role === "user")?.content ?? step.subtask,
    rounds: [],
    answer: null,
  };
  const steps = [...round.steps];
  steps[head.step] = {
    ...step,
    nested: { ...nested, rounds: updateRounds(nested.rounds, rest, f, depth + 1) },
  };
  const copy = [...rounds];
  copy[head.round] = { ...round, steps };
  return copy;
}

export function withRound(
  r: RunRecord,
  parent: ParentPath | undefined,
  index: number,
  f: (round: RoundRecord) => RoundRecord,
): RunRecord {
  return {
    ...r,
    rounds: updateRounds(r.rounds, parent ?? [], (rounds) => {
      const copy = [...rounds];
      while (copy.length <= index) copy.push(emptyRound(copy.length));
      copy[index] = f(copy[index]!);
      return copy;
    }),
  };
}

export function withStep(
  r: RunRecord,
  parent: ParentPath | undefined,
  round: number,
  step: number,
  f: (s: StepRecord) => StepRecord,
): RunRecord {
  return withRound(r, parent, round, (rd) => {
    const current = rd.steps[step];
    if (!current) return rd; // an event for a step the record never saw: ignore rather than invent
    const steps = [...rd.steps];
    steps[step] = f(current);
    return { ...rd, steps };
  });
}

export function withPlan(
  r: RunRecord,
  parent: ParentPath | undefined,
  round: number,
  f: (p: PlanRecord) => PlanRecord,
): RunRecord {
  return withRound(r, parent, round, (rd) => ({
    ...rd,
    plan: f(
      rd.plan ?? {
        messages: [],
        raw: "",
        startedAt: null,
        finishedAt: null,
        usage: null,
        cost: null,
        error: null,
      },
    ),
  }));
}
