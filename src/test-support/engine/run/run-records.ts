// Shared pieces of the run-record tests: a step that is done, a round that holds only steps, and
// the start of a run.
import type { EventOf } from "../../../engine/schema/events.ts";
import type { RoundRecord, StepRecord } from "../../../engine/schema/record.ts";
import { WorkerSchema } from "../../../engine/schema/worker.ts";
import { stepRecord } from "../../../engine/run/record.ts";

/** Step `i` for worker w0 (subtask `s{i}`, no access), done with `output`. */
export const doneStep = (
  i: number,
  output: string,
  patch: Partial<StepRecord> = {},
): StepRecord => ({
  ...stepRecord({ pool: [] }, { worker: "w0", subtask: `s${i}`, access: [] }, i),
  status: "done",
  output,
  ...patch,
});

/** A round that holds `steps` and nothing else: no plan, no answer, not accepted. */
export const roundRecord = (index: number, steps: StepRecord[]): RoundRecord => ({
  index,
  plan: null,
  lists: null,
  steps,
  answer: null,
  accepted: false,
});

/** A run_start for one worker, "a" (Alpha, model alpha-1), with five steps a round. */
export const runStart = (maxRounds: number): EventOf<"run_start"> => ({
  type: "run_start",
  at: 1,
  runId: "r",
  question: "q",
  pool: [WorkerSchema.parse({ id: "a", name: "Alpha", model: "alpha-1" })],
  maxSteps: 5,
  maxRounds,
});

/** The run record's fields that export v3 added, in the order a record holds them (after `id`). */
export const V3_RUN_FIELDS = [
  "kind",
  "parentId",
  "kept",
  "createdAt",
  "planningMs",
  "executionMs",
  "prompt",
];
