import { describe, expect, it } from "vitest";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { evaluation, worker } from "../../test-support/engine/eval/eval-runner.ts";
import {
  evaluationDefinition,
  judgeOptions,
  judgeWorkerOf,
  sessionScoring,
  withScorerVersion,
} from "./session.ts";

const pool = [
  worker("Solver", { input: 1, output: 1 }),
  worker("Checker", { input: 3, output: 15 }),
];
const checkerId = { ...pool[1]!, id: "w-checker" };

describe("the evaluation core", () => {
  it("finds the judge by the name stored, and by the worker id older CLI definitions stored", () => {
    const workers = [pool[0]!, checkerId];
    expect(judgeWorkerOf({ judge: "Checker" }, workers)?.id).toBe("w-checker");
    expect(judgeWorkerOf({ workerId: "w-checker" }, workers)?.name).toBe("Checker");
    expect(judgeWorkerOf({}, workers)).toBeUndefined();
    expect(judgeOptions("Checker", "  Be strict. ")).toEqual({
      judge: "Checker",
      rubric: "Be strict.",
    });
    expect(judgeOptions("", " ")).toEqual({});
  });

  it("meters the judge once: its calls go through the limiter and count per item", async () => {
    const backend = createFakeBackend([
      {
        text: "VERDICT: CORRECT",
        usage: { promptTokens: 100, completionTokens: 20, estimated: false },
      },
    ]);
    const made = sessionScoring({ id: "judge", options: judgeOptions("Checker", "") }, 3, {
      workers: pool,
      judgeBackend: (w) => (w.name === "Checker" ? backend : createFakeBackend([])),
    });
    if (!made.ok) throw new Error(made.message);
    expect(made.limiter.perOrigin).toBe(3);
    const signal = new AbortController().signal;
    const verdict = await made.scorer.score("Answer: 7", { question: "Q", expected: "7" }, signal);
    expect(verdict.correct).toBe(true);
    expect(made.judgeMeter!.take(signal)).toEqual({
      calls: 1,
      tokens: 120,
      cost: (100 * 3 + 20 * 15) / 1e6,
    });
    expect(made.limiter.limits()).toEqual({ "http://models.test": 3 });
    expect(withScorerVersion({ id: "judge", options: { judge: "Checker" } }, made.scorer)).toEqual({
      id: "judge",
      options: { judge: "Checker" },
      version: made.scorer.version,
    });
  });

  it("says why a scorer cannot be built instead of throwing", () => {
    const deps = { workers: pool, judgeBackend: () => createFakeBackend([]) };
    expect(sessionScoring({ id: "judge", options: {} }, 4, deps)).toMatchObject({ ok: false });
    expect(sessionScoring({ id: "nope", options: {} }, 4, deps)).toMatchObject({ ok: false });
  });

  it("defines an evaluation from plain inputs, keeping no headers", () => {
    const base = evaluation(pool);
    const withHeaders = pool.map((w) => ({ ...w, headers: { Authorization: "secret" } }));
    const defined = evaluationDefinition({ ...base, pool: withHeaders, instruction: undefined });
    expect(defined.pool.every((w) => w.headers === undefined)).toBe(true);
    expect(defined).toMatchObject({ id: base.id, scorer: base.scorer, concurrency: 2 });
    expect("instruction" in defined).toBe(false);
  });
});
