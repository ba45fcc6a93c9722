// An evaluation from its first run to its last: one backend per worker for the whole evaluation,
// the last run paused and resumed, a cancel while an answer is being judged, what it tells the
// partials' store, and a Conductor backend it has no use for.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { EvalProgress } from "./runner.ts";
import { EvalRun } from "./runner.ts";
import {
  collect,
  evaluation,
  items,
  until,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import type { Scorer } from "./scorers/types.ts";
import { mathScorer } from "./scorers/math.ts";

const answers = () => createFakeBackend([{ text: "Answer: 7" }]);

describe("evaluation runner: from start to end", () => {
  it("asks for each worker's backend once for the whole evaluation", async () => {
    const asked: string[] = [];
    const c = await collect({
      evaluation: evaluation([worker("a"), worker("b")]),
      items: items(3),
      backendFor: (w) => {
        asked.push(w.name);
        return answers();
      },
    });
    expect(c.outcome).toMatchObject({ status: "finished", done: 6 });
    expect(asked.sort()).toEqual(["a", "b"]);
  });

  it("runs the last run again when it is paused with nothing left to start, and finishes", async () => {
    // One item and room for two runs: q0 is the only run in flight when the pause cuts it short.
    const hold = new Promise<void>(() => undefined);
    const backend = createFakeBackend([{ text: "Answer: 7", gate: hold }, { text: "Answer: 7" }]);
    const progress: EvalProgress[] = [];
    const run = new EvalRun({
      evaluation: evaluation([worker("a")]),
      items: items(1),
      scorer: mathScorer(),
      backendFor: () => backend,
      taskConcurrency: 2,
      retry: { maxAttempts: 1 },
      onResult: () => undefined,
      onProgress: (p) => progress.push(p),
    });
    const done = run.run();
    await until(() => backend.calls.length === 1);
    run.pause();
    await until(() => progress.at(-1)!.running === 0);
    run.resume();
    expect(await done).toMatchObject({ status: "finished", done: 1, total: 1 });
    expect(backend.calls).toHaveLength(2);
  });

  it("a cancel aborts the judging of an answer in flight, and records nothing of it", async () => {
    // A judge that answers only once its signal aborts: the cancel must reach it.
    let judging = false;
    const judge: Scorer = {
      id: "math",
      version: 1,
      score: (_answer, _item, signal) =>
        new Promise((resolve) => {
          judging = true;
          signal.addEventListener("abort", () =>
            resolve({ correct: null, score: 0, extracted: null }),
          );
        }),
    };
    const onResult = (): void => {
      throw new Error("nothing judged under a cancel is a result");
    };
    const run = new EvalRun({
      evaluation: evaluation([worker("a")]),
      items: items(2),
      scorer: judge,
      backendFor: answers,
      taskConcurrency: 1,
      onResult,
    });
    const done = run.run();
    await until(() => judging);
    run.cancel();
    expect(await done).toMatchObject({ status: "cancelled", done: 0, total: 2 });
  });

  it("tells the partials' store nothing when no run was cut short", async () => {
    const told: [string, unknown][] = [];
    const c = await collect({
      evaluation: evaluation([worker("a")]),
      items: items(2),
      backendFor: answers,
      onPartial: (key, record) => void told.push([key, record]),
    });
    expect(c.outcome).toMatchObject({ status: "finished", done: 2 });
    expect(told).toEqual([]);
  });

  it("never calls a Conductor backend given to an evaluation without a Conductor", async () => {
    const unused = createFakeBackend([{ text: "never" }]);
    const c = await collect({
      evaluation: evaluation([worker("a")]),
      items: items(2),
      backendFor: answers,
      conductorBackend: unused,
    });
    expect(c.outcome).toMatchObject({ status: "finished", done: 2, errors: 0 });
    expect(c.results.every((r) => r.correct === true)).toBe(true);
    expect(unused.calls).toEqual([]);
  });
});
