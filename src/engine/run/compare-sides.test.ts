// compareRuns row by row: what each side shows of a step (worker name, access, tokens, cost,
// latency), which fields count as the same, runs of different lengths, and the totals.
import { describe, expect, it } from "vitest";
import type { RunRecord, StepRecord } from "../schema/record.ts";
import { WorkerSchema } from "../schema/worker.ts";
import { compareRuns, textDiff } from "./compare.ts";
import { totalsOf } from "./totals.ts";
import { emptyRecord, stepRecord } from "./record.ts";
import { roundRecord } from "../../test-support/engine/run/run-records.ts";

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
      unpriced: false,
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
      unpriced: false,
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
    expect(c.totals.left).toMatchObject({ own: a.totals, planningMs: 120, executionMs: 900 });
    expect(c.totals.right).toMatchObject({ own: b.totals, planningMs: null, executionMs: 10 });
    expect(compareRuns(b, a).answers.diff).toEqual([{ text: "42", op: "removed" }]);
  });

  it("compares a resumed run's whole totals with a whole run's, its own calls said apart", () => {
    const used = (promptTokens: number) => ({
      promptTokens,
      completionTokens: 0,
      estimated: false,
    });
    const steps = [
      step(0, { usage: used(100), cost: 0.1 }),
      step(1, { usage: used(50), cost: 0.05 }),
    ];
    const whole = run([steps]);
    whole.totals = totalsOf(whole);
    // The resumed run kept step 1 of its parent and ran step 2 again, a little cheaper.
    const resumed = run([[steps[0]!, step(1, { usage: used(40), cost: 0.04 })]], {
      kept: [{ parent: [], round: 0, step: 0 }],
    });
    resumed.totals = totalsOf(resumed);
    const c = compareRuns(whole, resumed);
    expect(c.totals.right.keptParts).toBe(1);
    expect(c.totals.right.own.calls).toBe(1);
    expect(c.totals.right.whole.calls).toBe(2);
    // Whole against whole: 140 - 150 tokens, $0.14 - $0.15; never 40 tokens against 150.
    expect(c.totals.difference.tokens).toBe(-10);
    expect(c.totals.difference.cost).toBeCloseTo(-0.01, 12);
    expect(c.totals.left.keptParts).toBe(0);
  });

  it("leaves the cost difference unknown when a call had no price, and a step's cost too", () => {
    const priced = run([
      [step(0, { usage: { promptTokens: 10, completionTokens: 0, estimated: false }, cost: 0.1 })],
    ]);
    const unpricedUsage = {
      promptTokens: 10,
      completionTokens: 0,
      estimated: false,
      unpriced: true as const,
    };
    const unpriced = run([[step(0, { usage: unpricedUsage, cost: 0 })]]);
    const c = compareRuns(priced, unpriced);
    expect(c.totals.difference).toEqual({ tokens: 0, cost: null });
    expect(c.rows[0]?.right).toMatchObject({ cost: null, unpriced: true });
    expect(c.rows[0]?.left).toMatchObject({ cost: 0.1, unpriced: false });
  });

  it("keeps whitespace and line breaks in a text diff", () => {
    expect(textDiff("a\nb", "a\n\nb").map((p) => p.op)).toContain("added");
    expect(textDiff("a\nb", "a\nb")).toEqual([{ text: "a\nb", op: "same" }]);
  });
});
