import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ChatRequest } from "../llm/types.ts";
import { stepsAt } from "../run/continue.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Pool } from "../schema/worker.ts";
import { WorkerSchema } from "../schema/worker.ts";
import type { RunnerOptions } from "./runner.ts";
import { runRun } from "./runner.ts";
import { questionRun } from "../../test-support/engine/exec/exec-runner.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";

const pool: Pool = ["Alpha", "Beta"].map((name, i) =>
  WorkerSchema.parse({ id: `w${i}`, name, model: `m${i}` }),
);
const PLAN = `Two tries, then a check.
model_id = [0, 1, 0]
subtasks = ["Try A", "Try B", "Check both"]
access_list = [[], [], ["all"]]`;
const ONE_STEP = `A second look.
model_id = [1, 0]
subtasks = ["Look again", "Final answer"]
access_list = [["all"], ["all"]]`;

/** Every model call of a run, Conductor and workers, counted at the backends. */
function setUp(conductorTexts: string[], over: Partial<RunnerOptions> = {}) {
  const calls: string[] = [];
  const subtaskOf = (r: ChatRequest) =>
    (r.messages[0]?.content ?? "").split("Your assigned subtask: ").at(-1) ?? "";
  const workers = createFakeBackend((r) => {
    calls.push(subtaskOf(r));
    return { text: `answer to ${subtaskOf(r)}` };
  });
  const conductorBackend = createFakeBackend((_, n) => {
    calls.push("plan");
    return { text: conductorTexts[Math.min(n, conductorTexts.length - 1)] ?? "" };
  });
  const o = questionRun(pool, { conductorBackend, workers }, over);
  return { o, calls };
}

async function record(o: RunnerOptions, base?: RunRecord): Promise<RunRecord> {
  return recordOf(await drain<RunEvent>(runRun(o)), base);
}

describe("the call budget", () => {
  it("counts the plan of a planned run that then runs: a budget of 3 allows 3 calls, not 4", async () => {
    const plan = setUp([PLAN], { start: { from: "plan", planOnly: true }, maxCalls: 3 });
    const planned = await record(plan.o);
    expect(planned.totals.calls).toBe(1);
    const steps = stepsAt(planned, { parent: [], round: 0 });
    const run = setUp([], {
      append: true,
      base: planned,
      maxCalls: 3,
      start: { from: "round", round: 0, steps, raw: planned.rounds[0]!.plan!.raw },
    });
    const r = await record(run.o, planned);
    expect(run.calls).toEqual(["Try A", "Try B"]);
    expect(r.totals.calls).toBe(3);
    // The step the budget stopped was never called: not run, not failed.
    expect(r.rounds[0]!.steps.map((s) => s.status)).toEqual(["done", "done", "skipped"]);
    expect(r.rounds[0]!.steps[2]!.error?.code).toBe("budget");
    expect(r).toMatchObject({ status: "failed", endReason: "budget" });
  });

  it("a budget cut in a later round keeps the last finished round's answer (docs/protocol.md §1.6)", async () => {
    // Plan, three steps, the second round's plan, one of its steps: 6 calls; the budget is 5.
    const { o, calls } = setUp([PLAN, ONE_STEP], { maxRounds: 2, maxCalls: 5 });
    const r = await record(o);
    expect(calls).toEqual(["plan", "Try A", "Try B", "Check both", "plan"]);
    expect(r).toMatchObject({ status: "done", endReason: "budget" });
    expect(r.answer).toBe("answer to Check both");
    expect(r.rounds[0]!.answer).toBe("answer to Check both");
    // Round 2's steps never ran: "not run" (skipped for the budget), none failed.
    expect(r.rounds[1]!.steps.map((s) => [s.status, s.error?.code])).toEqual([
      ["skipped", "budget"],
      ["skipped", "upstream_failed"],
    ]);
    expect(r.totals.calls).toBe(5);
  });

  it("counts every call of a plain run, planning included", async () => {
    const { o, calls } = setUp([PLAN], { maxCalls: 3 });
    const r = await record(o);
    expect(calls).toEqual(["plan", "Try A", "Try B"]);
    expect(r.totals.calls).toBe(3);
  });
});
