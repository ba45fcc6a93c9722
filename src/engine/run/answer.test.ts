import { describe, expect, it } from "vitest";
import type { RunRecord, StepStatus } from "../schema/record.ts";
import { answerOf } from "./answer.ts";
import { emptyRecord, stepRecord } from "./record.ts";
import { roundRecord } from "../../test-support/engine/run/run-records.ts";

const step = (i: number, status: StepStatus, output: string) => ({
  ...stepRecord({ pool: [] }, { worker: "w0", subtask: "s", access: [] }, i),
  status,
  output,
});
const record = (patch: Partial<RunRecord>): RunRecord => ({
  ...emptyRecord(),
  status: "done",
  ...patch,
});

describe("answerOf", () => {
  it("is the last step's output of the last round that ran, not the answer field", () => {
    const rounds = [
      roundRecord(0, [step(0, "done", "First round.")]),
      roundRecord(1, [step(0, "done", "Draft."), step(1, "done", "Final.")]),
      roundRecord(2, []),
    ];
    expect(answerOf(record({ answer: "A forged answer.", rounds }))).toBe("Final.");
  });

  it("falls back to the last non-empty output, and is null when the last step failed", () => {
    const empty = [step(0, "done", "Kept."), step(1, "done", "  ")];
    expect(answerOf(record({ rounds: [roundRecord(0, empty)] }))).toBe("Kept.");
    const failed = [step(0, "done", "Kept."), step(1, "failed", "partial")];
    expect(answerOf(record({ answer: "claimed", rounds: [roundRecord(0, failed)] }))).toBeNull();
  });

  it("after a budget stop midway, is the last round that finished", () => {
    const rounds = [
      roundRecord(0, [step(0, "done", "Round 1.")]),
      roundRecord(1, [step(0, "done", "Half."), step(1, "skipped", "")]),
    ];
    expect(answerOf(record({ endReason: "budget", rounds }))).toBe("Round 1.");
    expect(answerOf(record({ endReason: "step_error", rounds }))).toBeNull();
    // A budget that stopped the first round leaves no answer.
    const first = rounds.slice(1);
    expect(answerOf(record({ endReason: "budget", answer: "claimed", rounds: first }))).toBeNull();
  });

  it("is the record's answer field only when no round has steps", () => {
    expect(answerOf(record({ answer: "From the file." }))).toBe("From the file.");
    expect(answerOf(record({ answer: "x", rounds: [roundRecord(0, [])] }))).toBe("x");
    expect(answerOf(record({}))).toBeNull();
  });
});
