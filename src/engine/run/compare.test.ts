import { describe, expect, it } from "vitest";
import { compareRuns, wordDiff } from "./compare.ts";
import { emptyRecord, stepRecord } from "./record.ts";
import type { RunRecord } from "../schema/record.ts";

const run = (subtask: string, output: string): RunRecord => ({
  ...emptyRecord(),
  answer: output,
  rounds: [
    {
      index: 0,
      plan: null,
      lists: null,
      answer: output,
      accepted: false,
      steps: [
        {
          ...stepRecord({ pool: [] }, { worker: "w0", subtask, access: [] }, 0),
          status: "done",
          output,
        },
      ],
    },
  ],
});

describe("compareRuns", () => {
  it("diffs subtasks by word and outputs by text, step by step", () => {
    const c = compareRuns(
      run("Factor 391 quickly", "17 x 23"),
      run("Factor 391 carefully", "391 = 17 x 23"),
    );
    expect(c.rows).toHaveLength(1);
    const row = c.rows[0]!;
    expect(row.same).toMatchObject({ worker: true, subtask: false, output: false });
    expect(
      row.subtaskDiff.filter((p) => p.op !== "same").map((p) => [p.op, p.text.trim()]),
    ).toEqual([
      ["removed", "quickly"],
      ["added", "carefully"],
    ]);
    expect(row.outputDiff.some((p) => p.op === "added" && p.text.includes("391"))).toBe(true);
    expect(c.answers).toMatchObject({ left: "17 x 23", right: "391 = 17 x 23" });
  });

  it("shows a step only one run has", () => {
    const b = run("x", "y");
    const a = { ...b, rounds: [{ ...b.rounds[0]!, steps: [] }] };
    expect(compareRuns(a, b).rows[0]).toMatchObject({ left: null, right: { subtask: "x" } });
    expect(wordDiff("a b", "a b")).toEqual([{ text: "a b", op: "same" }]);
  });
});
