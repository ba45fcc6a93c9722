import { EndReason } from "../errors.ts";
import { workflowAnswer } from "../exec/execute.ts";
import type { RunRecord } from "../schema/record.ts";

/**
 * The answer a record's steps give (docs/protocol.md §1.1: the last step's output, or the last
 * non-empty one, of the last round that ran), not what a file's `answer` field claims; the field
 * only where no round has steps. When a budget stopped a later round midway, the last round that
 * finished answers (docs/protocol.md §1.6).
 */
export function answerOf(record: RunRecord): string | null {
  const ran = record.rounds.filter((r) => r.steps.length > 0);
  const round =
    record.endReason === EndReason.budget
      ? ran.findLast((r) => r.steps.every((s) => s.status === "done"))
      : ran.at(-1);
  if (!round) return ran.length ? null : record.answer;
  return workflowAnswer(
    round.steps.map((s) =>
      s.status === "done" ? { status: "done", output: s.output } : { status: "failed" },
    ),
  );
}
