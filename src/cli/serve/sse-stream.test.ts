import { describe, it } from "vitest";
import type { RunEvent } from "../../engine/schema/events.ts";
import { AnswerStream } from "./sse-stream.ts";

const usage = { promptTokens: 1, completionTokens: 1, estimated: false };
const steps = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    worker: `w${i}`,
    subtask: `s${i}`,
    access: "all" as const,
  }));
const roundStart = (round: number, n: number): RunEvent => ({
  type: "round_start",
  at: 0,
  round,
  steps: steps(n),
});
const start = (round: number, step: number, attempt = 1): RunEvent => ({
  type: "step_start",
  at: 0,
  round,
  step,
  attempt,
  messages: [],
});
const delta = (round: number, step: number, text: string): RunEvent => ({
  type: "step_delta",
  round,
  step,
  text,
});
const finish = (round: number, step: number, output: string): RunEvent => ({
  type: "step_finish",
  at: 0,
  round,
  step,
  output,
  usage,
  cost: 0,
});
const done = (answer: string | null, reason: "no_rounds" | "accepted" = "no_rounds"): RunEvent => ({
  type: "run_finish",
  at: 0,
  status: "done",
  reason,
  answer,
});

function feed(s: AnswerStream, events: RunEvent[]): string[] {
  return events.map((e) => s.next(e)).filter(Boolean);
}

describe("AnswerStream", () => {
  it("streams only the last step of the last round, live", ({ expect }) => {
    const s = new AnswerStream(0);
    const sent = feed(s, [
      roundStart(0, 2),
      start(0, 0),
      delta(0, 0, "draft "),
      finish(0, 0, "draft "),
      start(0, 1),
      delta(0, 1, "The answer "),
      delta(0, 1, "is 42."),
      finish(0, 1, "The answer is 42."),
      done("The answer is 42."),
    ]);
    expect(sent).toEqual(["The answer ", "is 42."]);
    expect(s.diverged).toBe(false);
  });

  it("ignores nested workflows' steps, which share round and step numbers", ({ expect }) => {
    const s = new AnswerStream(0);
    const parent = [{ round: 0, step: 0 }];
    const sent = feed(s, [
      roundStart(0, 1),
      { ...delta(0, 0, "nested text"), parent } as RunEvent,
      delta(0, 0, "top"),
    ]);
    expect(sent).toEqual(["top"]);
  });

  it("continues a retried final step while it agrees, and flags one that does not", ({
    expect,
  }) => {
    const same = new AnswerStream(0);
    const a = feed(same, [
      roundStart(0, 1),
      start(0, 0),
      delta(0, 0, "The sum "),
      start(0, 0, 2),
      delta(0, 0, "The sum "),
      delta(0, 0, "is 5050."),
      done("The sum is 5050."),
    ]);
    expect(a).toEqual(["The sum ", "is 5050."]);
    expect(same.diverged).toBe(false);
    const other = new AnswerStream(0);
    feed(other, [roundStart(0, 1), start(0, 0), delta(0, 0, "The sum "), start(0, 0, 2)]);
    expect(feed(other, [delta(0, 0, "It is 5050."), done("It is 5050.")])).toEqual([]);
    expect(other.diverged).toBe(true);
  });

  it("sends an earlier round's answer whole when the Conductor accepts it", ({ expect }) => {
    const s = new AnswerStream(1);
    const sent = feed(s, [
      roundStart(0, 1),
      start(0, 0),
      delta(0, 0, "5050"),
      finish(0, 0, "5050"),
      done("5050", "accepted"),
    ]);
    expect(sent).toEqual(["5050"]);
  });

  it("sends the fallback answer when the final step wrote nothing, and nothing on failure", ({
    expect,
  }) => {
    const s = new AnswerStream(0);
    expect(feed(s, [roundStart(0, 2), finish(0, 1, ""), done("from step 1")])).toEqual([
      "from step 1",
    ]);
    const failed = new AnswerStream(0);
    const end: RunEvent = {
      type: "run_finish",
      at: 0,
      status: "failed",
      reason: "step_error",
      answer: null,
    };
    expect(feed(failed, [roundStart(0, 1), end])).toEqual([]);
  });
});
