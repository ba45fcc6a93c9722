// An edited nested workflow re-run where it sits (docs/protocol.md §1.6): what it keeps, how deep
// its own Conductor steps may plan, and how the run ends when it succeeds or fails.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import { seedFrom, stepsAt } from "../run/continue.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import type { RunRecord } from "../schema/record.ts";
import type { Step } from "../schema/workflow.ts";
import type { RunnerOptions } from "./runner.ts";
import { runRun } from "./runner.ts";
import {
  conductor7b,
  runnerOptions,
  selfPool,
} from "../../test-support/engine/exec/exec-runner.ts";
import { drain } from "../../test-support/engine/exec/collect-events.ts";
import { subtaskOf } from "../../test-support/engine/exec/subtask.ts";

const question = "Is 391 prime?";
const pool = selfPool();
const conductor = conductor7b;
const SELF_PLAN = `Delegate the check.
model_id = [0, 2]
subtasks = ["Try A", "Plan the check"]
access_list = [[], ["all"]]`;
const NESTED = `Two inner steps.
model_id = [1, 0]
subtasks = ["Inner one", "Inner two"]
access_list = [[], ["all"]]`;
const DEEP = `One deep step.
model_id = [1]
subtasks = ["Deep work"]
access_list = [[]]`;

const FOCUS = { parent: [{ round: 0, step: 1 }], round: 0 };

function options(over: Partial<RunnerOptions>, plans: string[], fail?: string) {
  const calls: string[] = [];
  const workers = createFakeBackend((r) => {
    calls.push(subtaskOf(r));
    return subtaskOf(r) === fail
      ? { error: new LlmError("server", "down") }
      : { text: `answer to ${subtaskOf(r)}` };
  });
  const conductorBackend = createFakeBackend(plans.map((text) => ({ text })));
  const o = runnerOptions({
    question,
    pool,
    conductor,
    conductorBackend,
    backendFor: () => workers,
    retry: { maxAttempts: 1 },
    maxDepth: 1,
    ...over,
  });
  return { o, calls, conductorBackend };
}

/** A run whose second step the Conductor took, planning the two-step NESTED workflow. */
async function firstRun(): Promise<RunRecord> {
  const r = recordOf(await drain(runRun(options({}, [SELF_PLAN, NESTED]).o)));
  expect(r.rounds[0]?.steps[1]?.nested?.rounds[0]?.steps).toHaveLength(2);
  return r;
}

function inPlace(
  base: RunRecord,
  steps: Step[],
  over: Partial<RunnerOptions> = {},
  keep?: ReadonlyMap<number, string>,
  plans: string[] = [],
  fail?: string,
) {
  return options(
    {
      run: { kind: "edited", parentId: base.id },
      base,
      seed: seedFrom(base, FOCUS, keep?.keys() ?? []),
      start: { from: "nested", focus: FOCUS, steps, ...(keep ? { keep } : {}) },
      ...over,
    },
    plans,
    fail,
  );
}

const roundStart = (events: RunEvent[]) => events.find((e) => e.type === "round_start");

describe("re-running a nested workflow in place", () => {
  it("announces the steps it keeps in order, and none when it keeps none", async () => {
    const base = await firstRun();
    const steps = stepsAt(base, FOCUS);
    const kept = inPlace(base, steps, {}, new Map([[0, "kept one"]]));
    const events = await drain(runRun(kept.o));
    expect(roundStart(events)).toMatchObject({ parent: FOCUS.parent, round: 0, keep: [0] });
    expect(kept.calls).toEqual(["Inner two"]);
    const none = inPlace(base, steps);
    const all = await drain(runRun(none.o));
    expect(roundStart(all)).toMatchObject({ keep: [] });
    expect(none.calls).toEqual(["Inner one", "Inner two"]);
    // Kept in the order of the steps, whatever order the map was built in.
    const both = inPlace(
      base,
      [...steps, { ...steps[1]!, subtask: "Inner three" }],
      {},
      new Map([
        [1, "b"],
        [0, "a"],
      ]),
    );
    expect(roundStart(await drain(runRun(both.o)))).toMatchObject({ keep: [0, 1] });
  });

  it("ends no_rounds with the owner step's new answer as the run's answer", async () => {
    const base = await firstRun();
    const edit = inPlace(base, [{ worker: "w0", subtask: "Inner again", access: [] }]);
    const r = recordOf(await drain(runRun(edit.o)));
    expect(r).toMatchObject({ status: "done", endReason: "no_rounds" });
    expect(r.rounds[0]?.steps[1]?.output).toBe("answer to Inner again");
    expect(r.answer).toBe("answer to Inner again");
  });

  it("keeps the run's answer when the re-run workflow fails", async () => {
    const base = await firstRun();
    const edit = inPlace(
      base,
      [{ worker: "w0", subtask: "Broken", access: [] }],
      {},
      undefined,
      [],
      "Broken",
    );
    const r = recordOf(await drain(runRun(edit.o)));
    expect(r).toMatchObject({ status: "failed", answer: base.answer });
    expect(r.answer).not.toBeNull();
    // The owner step is not given an answer the workflow never produced.
    expect(r.rounds[0]?.steps[1]?.output).toBe(base.rounds[0]?.steps[1]?.output);
  });

  it("lets a Conductor step inside plan one level deeper only within the depth cap", async () => {
    const base = await firstRun();
    const self: Step[] = [{ worker: "w2", subtask: "Plan deeper", access: [] }];
    const deep = inPlace(base, self, { maxDepth: 2 }, undefined, [DEEP]);
    const nested = recordOf(await drain(runRun(deep.o)));
    expect(
      nested.rounds[0]?.steps[1]?.nested?.rounds[0]?.steps[0]?.nested?.rounds[0]?.steps,
    ).toMatchObject([{ subtask: "Deep work" }]);
    expect(deep.calls).toEqual(["Deep work"]);
    // At the cap, the Conductor answers the step itself, as a plain call.
    const capped = inPlace(base, self, { maxDepth: 1 }, undefined, ["A plain answer."]);
    const plain = recordOf(await drain(runRun(capped.o)));
    const step = plain.rounds[0]?.steps[1]?.nested?.rounds[0]?.steps[0];
    expect(step).toMatchObject({ status: "done", output: "A plain answer." });
    expect(step?.nested).toBeFalsy();
    expect(capped.calls).toEqual([]);
  });

  it("without a record to sit in, runs on the question and ends with the workflow's answer", async () => {
    const { o } = options(
      {
        start: {
          from: "nested",
          focus: FOCUS,
          steps: [{ worker: "w0", subtask: "Alone", access: [] }],
        },
      },
      [],
    );
    const events = await drain(runRun(o));
    expect(events.at(-1)).toMatchObject({
      type: "run_finish",
      status: "done",
      answer: "answer to Alone",
    });
    expect(events.filter((e) => e.type === "step_finish" && e.aggregate)).toEqual([]);
  });
});
