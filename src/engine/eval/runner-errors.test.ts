// A failed call is never a wrong answer: the runner records an error, leaves it out of accuracy,
// runs it again on resume and counts it in the outcome.
import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { LlmError } from "../llm/types.ts";
import { summarise } from "./report.ts";
import {
  collect,
  evaluation,
  expectedOutcome,
  items,
  worker,
} from "../../test-support/engine/eval/eval-runner.ts";
import { EvalResultSchema, parseResult } from "./schema.ts";

const POOL = [worker("good"), worker("down")];

/** "good" answers 7; "down" refuses the key (401) while `down.failing`. */
function backends(down = { failing: true }) {
  const good = createFakeBackend([{ text: "Answer: 7" }], { continuesAssistant: false });
  const bad = createFakeBackend(
    () => (down.failing ? { error: new LlmError("auth") } : { text: "Answer: 8" }),
    { continuesAssistant: false },
  );
  return { backendFor: (w: { name: string }) => (w.name === "good" ? good : bad), good, bad };
}

describe("errored items", () => {
  it("records a failed call as an error with its stage, code and message, never as wrong", async () => {
    const { backendFor } = backends();
    const c = await collect({ evaluation: evaluation(POOL), items: items(3), backendFor });
    const down = c.results.filter((r) => r.strategy === "single:down");
    expect(down).toHaveLength(3);
    for (const r of down) {
      expect(r.correct).toBeNull();
      expect(r.score).toBe(0);
      expect(r.error).toEqual({
        stage: "worker",
        code: "auth",
        message: expect.stringContaining("401") as unknown,
      });
      expect(r.reason).toBe(r.error!.message);
      expect(r.scoredBy).toBeUndefined();
      expect(r.status).toBe("failed");
    }
    const good = c.results.filter((r) => r.strategy === "single:good");
    expect(good.every((r) => r.correct === true && r.error === null)).toBe(true);
    expect(good[0]!.scoredBy).toEqual({ id: "math", version: expect.any(Number) as unknown });
    expect(c.outcome).toEqual(
      expectedOutcome({ status: "finished", done: 3, total: 6, cost: 0, errors: 3 }),
    );
    expect(c.progress.at(-1)).toMatchObject({ done: 3, errors: 3, total: 6, running: 0 });
    const [good_, down_] = summarise(c.results, ["single:good", "single:down"]);
    expect(good_).toMatchObject({ accuracy: 1, errors: 0, questions: 3, samples: 3 });
    expect(down_).toMatchObject({ accuracy: null, errors: 3, questions: 0, samples: 3, scored: 0 });
  });

  it("runs errored items again on resume, and only those", async () => {
    const down = { failing: true };
    const first = backends(down);
    const ev = evaluation(POOL);
    const a = await collect({ evaluation: ev, items: items(3), backendFor: first.backendFor });
    down.failing = false;
    const second = backends(down);
    const b = await collect({
      evaluation: ev,
      items: items(3),
      backendFor: second.backendFor,
      previous: a.results,
    });
    expect(second.good.calls).toHaveLength(0);
    expect(second.bad.calls).toHaveLength(3);
    expect(b.results.map((r) => [r.item, r.strategy, r.correct])).toEqual([
      ["q0", "single:down", false],
      ["q1", "single:down", false],
      ["q2", "single:down", false],
    ]);
    expect(b.outcome).toMatchObject({ status: "finished", done: 6, total: 6, errors: 0 });
    // Both files together: the last line of each key stands.
    const table = summarise([...a.results, ...b.results], ["single:good", "single:down"]);
    expect(table.map((r) => [r.accuracy, r.errors, r.samples])).toEqual([
      [1, 0, 3],
      [0, 0, 3],
    ]);
  });

  it("counts an error that happens again, and one a resumed run has not reached yet", async () => {
    const { backendFor } = backends();
    const ev = evaluation(POOL);
    const a = await collect({ evaluation: ev, items: items(2), backendFor });
    const again = await collect({
      evaluation: ev,
      items: items(2),
      backendFor,
      previous: a.results,
    });
    expect(again.outcome).toMatchObject({ done: 2, total: 4, errors: 2 });
    expect(again.progress[0]).toMatchObject({ done: 2, errors: 2, total: 4 });
  });

  it("is an error when the Conductor's call fails, but a wrong answer when its plan does not parse", async () => {
    const conductor = {
      kind: "openai" as const,
      baseURL: "http://c.test/v1",
      model: "c",
      temperature: 0,
      maxTokens: 64,
    };
    const ev = evaluation(POOL, { strategies: [{ kind: "conductor", rounds: 0 }], conductor });
    const { backendFor } = backends();
    const failing = createFakeBackend([{ error: new LlmError("server") }]);
    const e = await collect({
      evaluation: ev,
      items: items(1),
      backendFor,
      conductorBackend: failing,
    });
    expect(e.results[0]!.error).toMatchObject({ stage: "conductor", code: "server" });
    const nonsense = createFakeBackend([{ text: "I would rather not plan." }]);
    const w = await collect({
      evaluation: ev,
      items: items(1),
      backendFor,
      conductorBackend: nonsense,
    });
    expect(w.results[0]).toMatchObject({ correct: false, error: null, planFailed: true });
    // No Conductor configured: the evaluation's setup failed, not the Conductor.
    const s = await collect({
      evaluation: { ...ev, conductor: null },
      items: items(1),
      backendFor,
    });
    expect(s.results[0]!.error).toMatchObject({ stage: "setup", code: "no_conductor" });
    expect(s.outcome.errors).toBe(1);
  });

  it("scores an empty reply as wrong: the model answered nothing, no call failed", async () => {
    const empty = createFakeBackend([{ error: new LlmError("empty_response") }]);
    const c = await collect({
      evaluation: evaluation([worker("quiet")]),
      items: items(1),
      backendFor: () => empty,
    });
    expect(c.results[0]).toMatchObject({ correct: false, error: null });
    expect(c.outcome.errors).toBe(0);
  });

  it("reads an old line whose run failed on a call as an error (and leaves wrong answers alone)", () => {
    const base = {
      item: "q1",
      strategy: "single:a",
      repeat: 0,
      correct: false,
      score: 0,
      answer: null,
      expected: "7",
      tokens: 0,
      cost: 0,
      latencyMs: 3,
      runId: "r",
      status: "failed",
      endReason: "step_error",
    };
    const old = parseResult({ ...base, reason: new LlmError("auth").message });
    expect(old.success && old.data).toMatchObject({
      correct: null,
      error: { stage: "worker", code: "auth" },
    });
    const plan = parseResult({
      ...base,
      endReason: "plan_error",
      reason: new LlmError("server").message,
    });
    expect(plan.success && plan.data.error).toMatchObject({ stage: "conductor", code: "server" });
    const parse = parseResult({
      ...base,
      endReason: "plan_error",
      reason: "The three lists have different lengths: 2, 3",
    });
    expect(parse.success && parse.data).toMatchObject({ correct: false, error: null });
    const empty = parseResult({ ...base, reason: new LlmError("empty_response").message });
    expect(empty.success && empty.data.error).toBeNull();
    const done = parseResult({ ...base, status: "done", reason: new LlmError("auth").message });
    expect(done.success && done.data.error).toBeNull();
    // A line that already has the field is read as written.
    const written = EvalResultSchema.parse({
      ...base,
      error: null,
      reason: new LlmError("auth").message,
    });
    expect(parseResult(written).success && parseResult(written).data?.error).toBeNull();
  });
});
