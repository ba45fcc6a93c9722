/** The scorer's bookkeeping against a scripted sandbox (real programs: sandbox.node.test.ts). */
import { describe, expect, it } from "vitest";
import type { RunResult, Sandbox } from "./pool.ts";
import { createCodeScorer } from "./scorer.ts";
import type { RunLimits, RunOutcome, RunRequest } from "./types.ts";

function scripted(outcomes: (Partial<RunOutcome> | RunResult)[]) {
  const calls: { request: RunRequest; limits: RunLimits }[] = [];
  const sandbox: Sandbox = {
    run: (request, limits) => {
      calls.push({ request, limits });
      const next = outcomes.shift() ?? {};
      if ("ok" in next) return Promise.resolve(next);
      const outcome: RunOutcome = { status: "ok", stdout: "", stderr: "", timeMs: 2, ...next };
      return Promise.resolve({ ok: true, outcome } satisfies RunResult);
    },
    warm: () => Promise.resolve(),
    status: () => ({
      phase: "ready",
      loaded: 0,
      total: 0,
      starts: 1,
      lastLoadMs: 1,
      message: null,
    }),
    subscribe: () => () => undefined,
    dispose: () => undefined,
  };
  return { sandbox, calls };
}

const TESTS = {
  style: "stdio",
  timeLimitMs: 2500,
  cases: [
    { input: "1\n", output: "1\n" },
    { input: "2\n", output: "2\n" },
    { input: "3\n", output: "3\n" },
  ],
};
const signal = new AbortController().signal;
const ANSWER = "```python\nprint(input())\n```";

describe("createCodeScorer", () => {
  it("counts passes, keeps the first failure and applies the item's time limit", async () => {
    const { sandbox, calls } = scripted([
      { stdout: "1\n" },
      { stdout: "x" },
      { stdout: "3  \n\n" },
    ]);
    const r = await createCodeScorer({ sandbox }).score(
      ANSWER,
      { question: "", tests: TESTS },
      signal,
    );
    expect(r).toMatchObject({ correct: false, score: 0, reason: "wrong answer on test 2 of 3" });
    expect(r.details).toMatchObject({
      passed: 2,
      total: 3,
      skipped: 0,
      timeMs: 6,
      firstFailure: { index: 1, input: "2\n", expected: "2\n", actual: "x" },
    });
    expect(calls.map((c) => c.limits.timeMs)).toEqual([2500, 2500, 2500]);
  });

  it("cuts long outputs in the report", async () => {
    const { sandbox } = scripted([{ stdout: "y".repeat(5000) }]);
    const r = await createCodeScorer({ sandbox }).score(
      ANSWER,
      { question: "", tests: TESTS },
      signal,
    );
    const actual = (r.details?.firstFailure as { actual: string }).actual;
    expect(actual).toBe(`${"y".repeat(300)}… (4700 more characters)`);
  });

  it("leaves an item without usable tests, or a cancelled one, unscored", async () => {
    const { sandbox } = scripted([{ ok: false, code: "aborted", message: "Cancelled." }]);
    const scorer = createCodeScorer({ sandbox });
    expect(await scorer.score(ANSWER, { question: "" }, signal)).toMatchObject({
      correct: null,
      reason: "the item has no tests",
      extracted: "print(input())",
    });
    expect(await scorer.score(ANSWER, { question: "", tests: TESTS }, signal)).toMatchObject({
      correct: null,
      reason: "cancelled",
    });
  });

  it("reports a sandbox that failed to start as unscored with its message", async () => {
    const message = "The Python interpreter failed to start: 404";
    const { sandbox } = scripted([{ ok: false, code: "sandbox_failed", message }]);
    const r = await createCodeScorer({ sandbox }).score(
      ANSWER,
      { question: "", tests: TESTS },
      signal,
    );
    expect(r).toMatchObject({ correct: null, reason: message });
  });
});
