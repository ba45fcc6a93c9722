// Test support for the run slice's results (state/slices/run.ts). Imported by test files only.
import type { StepResult } from "../../../state/slices/run.ts";

/**
 * A step's result as the studio holds it: done after one attempt, started at 1 and finished at 2,
 * with no output, messages, usage, cost or error, unless `patch` says otherwise.
 */
export function stepResult(patch: Partial<StepResult> = {}): StepResult {
  return {
    status: "done",
    output: "",
    messages: [],
    usage: null,
    cost: null,
    startedAt: 1,
    finishedAt: 2,
    attempts: 1,
    error: null,
    ...patch,
  };
}
