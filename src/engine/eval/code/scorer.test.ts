/** The scorer's bookkeeping against a scripted sandbox (real programs: sandbox.node.test.ts). */
import { describe, expect, it } from "vitest";
import type { RunResult, Sandbox } from "./pool.ts";
import { leaseOver } from "./pool.ts";
import { CODE_SCORER_VERSION, createCodeScorer, oldScorerNote } from "./scorer.ts";
import type { RunLimits, RunOutcome, RunRequest } from "./sandbox-types.ts";

function scripted(outcomes: (Partial<RunOutcome> | RunResult)[]) {
  const calls: { request: RunRequest; limits: RunLimits }[] = [];
  const run: Sandbox["run"] = (request, limits) => {
    calls.push({ request, limits });
    const next = outcomes.shift() ?? {};
    if ("ok" in next) return Promise.resolve(next);
    const outcome: RunOutcome = { status: "ok", stdout: "", stderr: "", timeMs: 2, ...next };
    return Promise.resolve({ ok: true, outcome } satisfies RunResult);
  };
  const sandbox: Sandbox = {
    run,
    open: leaseOver(run),
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

  it("decides function tests from the plain value returned, never from the interpreter's say", async () => {
    const tests = {
      style: "function",
      name: "f",
      cases: [
        { args: [], expected: 3 },
        { args: [], expected: 3 },
      ],
    };
    const { sandbox, calls } = scripted([
      { value: { int: "3" }, repr: "3" },
      { value: { int: "4" } },
    ]);
    const r = await createCodeScorer({ sandbox }).score(ANSWER, { question: "", tests }, signal);
    expect(r.details).toMatchObject({
      passed: 1,
      firstFailure: { index: 1, verdict: "wrong_answer" },
    });
    // The expected value never travels to the sandbox.
    expect(JSON.stringify(calls.map((c) => c.request))).not.toContain("expected");
    const one = { ...tests, cases: [{ args: [], expected: 3 }] };
    for (const outcome of [
      { notPlain: "an object of class Always, a subclass of int" },
      { value: { int: "3", passed: true } },
      { value: { __eq__: "always" } },
      {},
    ]) {
      const { sandbox: s } = scripted([outcome]);
      const w = await createCodeScorer({ sandbox: s }).score(
        ANSWER,
        { question: "", tests: one },
        signal,
      );
      expect(w.correct, JSON.stringify(outcome)).toBe(false);
    }
    const { sandbox: sub } = scripted([{ notPlain: "a MyInt, a subclass of int", repr: "3" }]);
    const named = await createCodeScorer({ sandbox: sub }).score(
      ANSWER,
      { question: "", tests: one },
      signal,
    );
    expect(named.reason).toBe(
      "wrong answer on test 1 of 1: the function returned a MyInt, a subclass of int; only plain values count",
    );
  });

  it("caps a question set's timeLimitMs at 60 s unless the caller raises the cap", async () => {
    const slow = { ...TESTS, timeLimitMs: 600_000, cases: [TESTS.cases[0]] };
    const a = scripted([{ stdout: "1\n" }]);
    await createCodeScorer({ sandbox: a.sandbox }).score(
      ANSWER,
      { question: "", tests: slow },
      signal,
    );
    expect(a.calls[0]?.limits.timeMs).toBe(60_000);
    const b = scripted([{ stdout: "1\n" }]);
    const raised = createCodeScorer({ sandbox: b.sandbox, maxTimeLimitMs: 120_000 });
    const r = await raised.score(ANSWER, { question: "", tests: slow }, signal);
    expect(b.calls[0]?.limits.timeMs).toBe(120_000);
    expect(r.details).toMatchObject({ limitMs: 120_000 });
  });

  it("stops an answer at an output or memory limit: the rest count as skipped", async () => {
    for (const status of ["output_limit", "memory_limit"] as const) {
      const { sandbox, calls } = scripted([{ status }]);
      const r = await createCodeScorer({ sandbox }).score(
        ANSWER,
        { question: "", tests: TESTS },
        signal,
      );
      expect(calls).toHaveLength(1);
      expect(r.details).toMatchObject({ passed: 0, skipped: 2, firstFailure: { verdict: status } });
    }
  });

  it("says so of results scored by the old code scorer", () => {
    expect(oldScorerNote({ id: "code", version: 1 })).toMatch(/code scorer v1.*re-score/);
    expect(oldScorerNote({ id: "code", version: CODE_SCORER_VERSION })).toBeNull();
    expect(oldScorerNote({ id: "exact", version: 1 })).toBeNull();
  });
});
