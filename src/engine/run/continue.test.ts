import { describe, expect, it } from "vitest";
import type { RoundRecord, RunRecord } from "../schema/record.ts";
import { WorkerSchema } from "../schema/worker.ts";
import { stepsAt } from "./continue.ts";
import { TOP } from "./focus.ts";
import { emptyRecord, stepRecord } from "./record.ts";

const pool = ["x", "y", "z"].map((id) => WorkerSchema.parse({ id, name: id.toUpperCase() }));
const planned = (workerIds: string[], model_id: number[]): RunRecord => {
  const round: RoundRecord = {
    index: 0,
    plan: null,
    lists: {
      model_id,
      subtasks: model_id.map((n) => `task ${n}`),
      access_list: model_id.map(() => [] as number[]),
      workerIds,
    },
    steps: [],
    answer: null,
    accepted: false,
  };
  return { ...emptyRecord("r"), pool, rounds: [round] };
};

describe("stepsAt", () => {
  it("reads a planned round's lists through their workerIds, not through the pool's order", () => {
    // The prompt showed z, x, y; the pool is x, y, z now.
    expect(stepsAt(planned(["z", "x", "y"], [0, 2]), TOP)).toEqual([
      { worker: "z", subtask: "task 0", access: [] },
      { worker: "y", subtask: "task 2", access: [] },
    ]);
  });

  it("names a number past the shown workers model-id-N, which no worker has", () => {
    expect(stepsAt(planned(["x"], [0, 4]), TOP).map((s) => s.worker)).toEqual(["x", "model-id-4"]);
  });

  it("gives a round that ran its steps' worker ids", () => {
    const base = { ...emptyRecord("r"), pool };
    const steps = [
      stepRecord(base, { worker: "z", subtask: "a", access: [] }, 0),
      stepRecord(base, { worker: "x", subtask: "b", access: "all" }, 1),
    ];
    const ran = planned(["x", "y", "z"], [0, 0]);
    const record = { ...ran, rounds: [{ ...ran.rounds[0]!, steps }] };
    expect(stepsAt(record, TOP)).toEqual([
      { worker: "z", subtask: "a", access: [] },
      { worker: "x", subtask: "b", access: "all" },
    ]);
  });
});
