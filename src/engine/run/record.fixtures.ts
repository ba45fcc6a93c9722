// Shared pieces of the run-record tests: a step that is done and a round that holds only steps.
import type { RoundRecord, StepRecord } from "../schema/record.ts";
import { stepRecord } from "./record.ts";

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
