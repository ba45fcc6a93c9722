import { describe, expect, it } from "vitest";
import { RunRecordSchema } from "../schema/record.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import { workflowRecord } from "./workflow-record.ts";

const pool = ["x", "y"].map((id) => WorkerSchema.parse({ id, name: id.toUpperCase() }));
const conductor = ConductorConfigSchema.parse({ baseURL: "http://127.0.0.1:9/v1", model: "c" });
const steps = [
  { worker: "y", subtask: "Try", access: [] },
  { worker: "x", subtask: "Check", access: "all" as const },
];
const input = {
  id: "workflow-1",
  question: "Why?",
  pool,
  conductor,
  maxSteps: 4,
  steps,
  plan: null,
};

describe("workflowRecord", () => {
  it("is a valid draft record of one round of steps not run yet, numbered as the pool shows", () => {
    const r = workflowRecord(input);
    expect(RunRecordSchema.safeParse(r).success).toBe(true);
    expect(r).toMatchObject({ id: "workflow-1", status: "draft", question: "Why?", maxSteps: 4 });
    expect(r.pool).toBe(pool);
    expect(r.conductor).toBe(conductor);
    expect(r.rounds).toHaveLength(1);
    expect(r.rounds[0]).toMatchObject({ index: 0, answer: null, accepted: false });
    const round = r.rounds[0]!;
    expect(round.steps.map((s) => [s.workerName, s.subtask, s.status, s.output])).toEqual([
      ["Y", "Try", "idle", ""],
      ["X", "Check", "idle", ""],
    ]);
    expect(round.lists).toEqual({
      model_id: [1, 0],
      subtasks: ["Try", "Check"],
      access_list: [[], "all"],
      workerIds: ["x", "y"],
    });
  });

  it("keeps the Conductor's plan the workflow came from", () => {
    const plan = {
      messages: [],
      raw: "model_id = [1, 0]",
      startedAt: 1,
      finishedAt: 2,
      usage: null,
      cost: null,
      error: null,
    };
    expect(workflowRecord({ ...input, plan }).rounds[0]!.plan).toEqual(plan);
    expect(workflowRecord(input).rounds[0]!.plan).toBeNull();
  });

  it("has no Conductor numbering when a step's worker is not in the pool", () => {
    const r = workflowRecord({
      ...input,
      steps: [...steps, { worker: "gone", subtask: "?", access: [] }],
    });
    expect(r.rounds[0]!.lists).toBeNull();
    expect(r.rounds[0]!.steps[2]!.workerName).toBe("gone");
  });
});
