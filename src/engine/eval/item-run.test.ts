import { describe, expect, it } from "vitest";
import { ENDING_TEXT } from "../errors.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { recordOf } from "../run/record.ts";
import type { RunEvent } from "../schema/events.ts";
import type { ItemRunContext } from "./item-run.ts";
import { itemRunEvents } from "./item-run.ts";
import { runError } from "./outcome.ts";
import { evaluation, worker } from "../../test-support/engine/eval/eval-runner.ts";

const pool = [worker("solo")];
const answering = createFakeBackend([{ text: "Answer: 7" }], { continuesAssistant: false });

function context(over: Partial<ItemRunContext>): ItemRunContext {
  return {
    evaluation: evaluation(pool),
    strategy: { kind: "single", worker: "solo" },
    question: "What is 3 + 4?",
    runId: "item-1",
    backendFor: () => answering,
    conductorBackend: undefined,
    signal: new AbortController().signal,
    now: () => 10,
    ...over,
  };
}

async function eventsOf(c: ItemRunContext): Promise<RunEvent[]> {
  const out: RunEvent[] = [];
  for await (const e of itemRunEvents(c)) out.push(e);
  return out;
}

describe("an evaluation item's run goes through the one runner", () => {
  it("runs a fixed strategy's steps as a whole run, from run_start to run_finish", async () => {
    const events = await eventsOf(context({}));
    expect(events[0]).toMatchObject({ type: "run_start", runId: "item-1", kind: "planned" });
    expect(events.at(-1)).toMatchObject({
      type: "run_finish",
      status: "done",
      answer: "Answer: 7",
    });
    expect(recordOf(events).rounds[0]?.steps).toHaveLength(1);
  });

  it("ends a Conductor strategy without a Conductor as no_conductor, not a failed step", async () => {
    const events = await eventsOf(context({ strategy: { kind: "conductor", rounds: 0 } }));
    expect(events.map((e) => e.type)).toEqual(["run_start", "run_finish"]);
    expect(events[1]).toMatchObject({
      status: "failed",
      reason: "no_conductor",
      message: ENDING_TEXT.no_conductor,
    });
    const record = recordOf(events);
    expect(runError(record)).toEqual({
      stage: "setup",
      code: "no_conductor",
      message: ENDING_TEXT.no_conductor,
    });
  });

  it("ends a strategy whose worker the pool lacks as setup_error, naming the worker", async () => {
    const events = await eventsOf(context({ strategy: { kind: "single", worker: "gone" } }));
    expect(events.map((e) => e.type)).toEqual(["run_start", "run_finish"]);
    expect(events[1]).toMatchObject({ status: "failed", reason: "setup_error" });
    const finish = events[1];
    expect(finish?.type === "run_finish" && finish.message).toContain("gone");
    expect(runError(recordOf(events))).toMatchObject({ stage: "setup", code: "invalid_config" });
  });
});
