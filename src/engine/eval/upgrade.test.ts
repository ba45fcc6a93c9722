import { describe, expect, it } from "vitest";
import { upgradeRunObject } from "../run/export.ts";
import { RunRecordSchema } from "../schema/record.ts";
import { StrategySchema } from "./strategy.ts";
import { upgradeEvaluation } from "./schema.ts";
import { v1Step } from "../../test-support/engine/eval/stored-v1.ts";

// Evaluations and their item runs are stored as objects, not exports: ones stored before steps
// referred to workers by id still open, on the same workers.

const pool = [
  { id: "alpha", name: "Alpha" },
  { id: "beta", name: "Beta" },
];

describe("stored evaluations from before workers by id", () => {
  it("a workflow strategy's step places become the ids of the workers at those places", () => {
    const old = {
      pool,
      strategies: [
        { kind: "single", worker: "Alpha" },
        {
          kind: "workflow",
          steps: [
            { worker: 1, subtask: "Solve.", access: [] },
            { worker: 0, subtask: "Check.", access: "all" },
          ],
        },
      ],
    };
    const up = upgradeEvaluation(old) as { strategies: unknown[] };
    expect(up.strategies[0]).toEqual({ kind: "single", worker: "Alpha" });
    expect(StrategySchema.parse(up.strategies[1])).toEqual({
      kind: "workflow",
      steps: [
        { worker: "beta", subtask: "Solve.", access: [] },
        { worker: "alpha", subtask: "Check.", access: "all" },
      ],
    });
    // Today's shape passes unchanged, and a place past the pool's end is named, not guessed.
    expect(upgradeEvaluation(up)).toEqual(up);
    const past = upgradeEvaluation({
      pool,
      strategies: [{ kind: "workflow", steps: [{ worker: 5, subtask: "x", access: [] }] }],
    }) as { strategies: { steps: { worker: string }[] }[] };
    expect(past.strategies[0]?.steps[0]?.worker).toBe("model-id-5");
  });

  it("an item run stored as an object gains worker ids and its lists' mapping, once", () => {
    const step = (i: number, worker: number) =>
      v1Step(i, worker, pool[worker]?.name ?? "", `s${i}`);
    const run = {
      id: "r",
      kind: "evaluation",
      parentId: null,
      kept: [],
      createdAt: 1,
      planningMs: null,
      executionMs: null,
      prompt: null,
      question: "q",
      pool: pool.map((w) => ({ ...w, model: "m" })),
      conductor: null,
      maxSteps: 5,
      maxRounds: 0,
      status: "done",
      endReason: null,
      message: null,
      startedAt: 1,
      finishedAt: 2,
      rounds: [
        {
          index: 0,
          plan: null,
          lists: { model_id: [1, 0], subtasks: ["s0", "s1"], access_list: [[], []] },
          steps: [step(0, 1), step(1, 0)],
          answer: "ok",
          accepted: false,
        },
      ],
      answer: "ok",
      totals: { promptTokens: 0, completionTokens: 0, cost: 0, estimated: false, calls: 0 },
    };
    const up = RunRecordSchema.parse(upgradeRunObject(run));
    expect(up.rounds[0]?.steps.map((s) => s.worker)).toEqual(["beta", "alpha"]);
    expect(up.rounds[0]?.lists?.workerIds).toEqual(["alpha", "beta"]);
    // Idempotent: a mapping already there is kept, even when the pool's order differs now.
    const moved = { ...up, pool: [...up.pool].reverse() };
    expect(RunRecordSchema.parse(upgradeRunObject(moved)).rounds[0]?.lists?.workerIds).toEqual([
      "alpha",
      "beta",
    ]);
  });
});
