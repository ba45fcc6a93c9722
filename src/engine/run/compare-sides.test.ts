// compareRuns row by row: what each side shows of a step (worker name, access, tokens, cost,
// latency), which fields count as the same, runs of different lengths, and the totals.
import { describe, expect, it } from "vitest";
import type { RunRecord, StepRecord } from "../schema/record.ts";
import { WorkerSchema } from "../schema/worker.ts";
import { compareRuns, textDiff } from "./compare.ts";
import { emptyRecord, stepRecord } from "./record.ts";
import { roundRecord } from "./record.fixtures.ts";

const pool = [WorkerSchema.parse({ id: "w0", name: "Alpha" })];
const step = (i: number, patch: Partial<StepRecord> = {}): StepRecord => ({
  ...stepRecord({ pool }, { worker: "w0", subtask: `task ${i}`, access: [] }, i),
  status: "done",
  output: `out ${i}`,
  ...patch,
});
const run = (rounds: StepRecord[][], patch: Partial<RunRecord> = {}): RunRecord => ({
  ...emptyRecord(),
  pool,
  rounds: rounds.map((steps, index) => roundRecord(index, steps)),
  ...patch,
});

describe("compareRuns, side by side", () => {
  it("shows each side's worker by its pool name, access, tokens, cost and latency", () => {
    const left = run([
      [
        step(0, {
          access: [0, 2],
          usage: { promptTokens: 30, completionTokens: 12, estimated: false },
          cost: 0.5,
          startedAt: 100,
          finishedAt: 350,
        }),
      ],
    ]);
    // The right run's worker has left its pool: the step's recorded name is shown.
    const right = run([[step(0, { worker: "gone", workerName: "Old worker", access: "all" })]], {
      pool: [],
    });
    const row = compareRuns(left, right).rows[0]!;
    expect(row.left).toEqual({
      worker: "Alpha",
      subtask: "task 0",
      access: "1, 3",
      status: "done",
      output: "out 0",
      tokens: 42,
      cost: 0.5,
      latencyMs: 250,
    });
    expect(row.right).toEqual({
      worker: "Old worker",
      subtask: "task 0",
      access: "all",
      status: "done",
      output: "out 0",
      tokens: null,
      cost: null,
      latencyMs: null,
    });
    expect(row.same).toEqual({ worker: false, subtask: true, access: false, output: true });
  });

  it("reads no access as none, and a step still running as having no latency", () => {
    const a = run([[step(0, { startedAt: 5, finishedAt: null, status: "running" })]]);
    const row = compareRuns(a, a).rows[0]!;
    expect(row.left).toMatchObject({ access: "none", latencyMs: null, status: "running" });
    expect(row.same).toEqual({ worker: true, subtask: true, access: true, output: true });
    const noStart = run([[step(0, { startedAt: null, finishedAt: 9 })]]);
    expect(compareRuns(noStart, noStart).rows[0]?.left?.latencyMs).toBeNull();
  });

  it("has a row for every round and step of the longer run, in order", () => {
    const long = run([[step(0), step(1)], [step(0)]]);
    const short = run([[step(0)]]);
    const rows = compareRuns(short, long).rows;
    expect(rows.map((r) => [r.round, r.index, r.left !== null, r.right !== null])).toEqual([
      [0, 0, true, true],
      [0, 1, false, true],
      [1, 0, false, true],
    ]);
    // A side with no step diffs against empty text: all of the other side is added.
    expect(rows[1]?.outputDiff).toEqual([{ text: "out 1", op: "added" }]);
    expect(rows[1]?.same.output).toBe(false);
    expect(rows[1]?.subtaskDiff).toEqual([{ text: "task 1", op: "added" }]);
    const reversed = compareRuns(long, short).rows[2];
    expect(reversed?.subtaskDiff).toEqual([{ text: "task 0", op: "removed" }]);
    expect(reversed?.outputDiff).toEqual([{ text: "out 0", op: "removed" }]);
  });

  it("diffs the answers, a missing one as empty, and carries each run's totals and times", () => {
    const a = run([], { answer: null, planningMs: 120, executionMs: 900 });
    const b = run([], { answer: "42", planningMs: null, executionMs: 10 });
    const c = compareRuns(a, b);
    expect(c.rows).toEqual([]);
    expect(c.answers).toEqual({ left: null, right: "42", diff: [{ text: "42", op: "added" }] });
    expect(c.totals.left).toEqual({ ...a.totals, planningMs: 120, executionMs: 900 });
    expect(c.totals.right).toEqual({ ...b.totals, planningMs: null, executionMs: 10 });
    expect(compareRuns(b, a).answers.diff).toEqual([{ text: "42", op: "removed" }]);
  });

  it("keeps whitespace and line breaks in a text diff", () => {
    expect(textDiff("a\nb", "a\n\nb").map((p) => p.op)).toContain("added");
    expect(textDiff("a\nb", "a\nb")).toEqual([{ text: "a\nb", op: "same" }]);
  });
});
