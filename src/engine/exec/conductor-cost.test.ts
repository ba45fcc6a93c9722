import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { recordOf } from "../run/record.ts";
import { planningCostOf, totalsOf } from "../run/totals.ts";
import type { RunEvent } from "../schema/events.ts";
import { ConductorConfigSchema, WorkerSchema } from "../schema/worker.ts";
import type { RunnerOptions } from "./runner.ts";
import { runRun } from "./runner.ts";

// A priced Conductor: its plans count in the run's cost like any worker call (issue 10).
const PLAN = `Two tries.
model_id = [0, 0]
subtasks = ["Try A", "Try B"]
access_list = [[], []]`;
const ACCEPT = "Fine.\nmodel_id = []\nsubtasks = []\naccess_list = []";
const pool = [
  WorkerSchema.parse({ id: "w0", name: "A", model: "a", price: { input: 2, output: 10 } }),
];
const planUsage = { promptTokens: 900, completionTokens: 150, estimated: false };
const stepUsage = { promptTokens: 100, completionTokens: 20, estimated: false };
// Per million: 900 * 0.5 + 150 * 4 for a plan; 100 * 2 + 20 * 10 for a step.
const PLAN_COST = 0.00105;
const STEP_COST = 0.0004;

function record(conductorPrice: { input: number; output: number } | undefined, texts: string[]) {
  return recordWith(ConductorConfigSchema.parse({ model: "c", price: conductorPrice }), texts);
}

async function recordWith(conductor: RunnerOptions["conductor"], texts: string[]) {
  const o: RunnerOptions = {
    question: "Is 391 prime?",
    pool,
    conductor,
    conductorBackend: createFakeBackend(texts.map((text) => ({ text, usage: planUsage }))),
    backendFor: () => createFakeBackend(() => ({ text: "391 = 17 × 23", usage: stepUsage })),
    signal: new AbortController().signal,
    start: { from: "plan" },
    maxRounds: texts.length - 1,
  };
  const events: RunEvent[] = [];
  for await (const e of runRun(o)) events.push(e);
  return recordOf(events);
}

describe("a priced Conductor's plans in a run's cost", () => {
  it("counts the plan at the Conductor's price in the record and the totals", async () => {
    const r = await record({ input: 0.5, output: 4 }, [PLAN]);
    expect(r.status).toBe("done");
    expect(r.conductor?.price).toEqual({ input: 0.5, output: 4 });
    expect(r.rounds[0]?.plan?.cost).toBeCloseTo(PLAN_COST, 12);
    expect(r.totals.cost).toBeCloseTo(PLAN_COST + 2 * STEP_COST, 12);
    expect(r.totals).toEqual(totalsOf(r));
    expect(planningCostOf(r)).toBeCloseTo(PLAN_COST, 12);
  });

  it("counts every refinement plan too", async () => {
    const r = await record({ input: 0.5, output: 4 }, [PLAN, ACCEPT]);
    expect(r.endReason).toBe("accepted");
    expect(planningCostOf(r)).toBeCloseTo(2 * PLAN_COST, 12);
    expect(r.totals.cost).toBeCloseTo(2 * PLAN_COST + 2 * STEP_COST, 12);
  });

  it("marks a remote Conductor's plan without a price unpriced, like a worker's call", async () => {
    const r = await record(undefined, [PLAN]);
    expect(r.rounds[0]?.plan?.cost).toBe(0);
    expect(r.rounds[0]?.plan?.usage?.unpriced).toBe(true);
    expect(planningCostOf(r)).toBe(0);
    // The totals are a lower bound: the plan's call is counted as one whose cost is unknown.
    expect(r.totals.cost).toBeCloseTo(2 * STEP_COST, 12);
    expect(r.totals.unpricedCalls).toBe(1);
    expect(r.totals).toEqual(totalsOf(r));
  });

  it("leaves an in-browser Conductor's plan priced (it costs nothing)", async () => {
    const o = ConductorConfigSchema.parse({ kind: "webllm", model: "c" });
    const r = await recordWith(o, [PLAN]);
    expect(r.rounds[0]?.plan?.usage?.unpriced).toBeUndefined();
    expect(r.totals.unpricedCalls).toBeUndefined();
  });
});
