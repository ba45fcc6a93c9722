/**
 * The code scorer: extracts the program from an answer and runs it against the item's tests in a
 * sandbox. pass@1: an item is correct only when every test passes. Runs the tests in order; after
 * a syntax error or a time-out the remaining tests are not run (they count as failed), so an item
 * costs at most about one time limit more than its passing tests.
 */
import { ErrorCode } from "../../errors.ts";
import { scorerKind } from "../scorers/kinds.ts";
import { scoreWithProxy } from "./assert-proxy.ts";
import { evalplusPlan } from "./evalplus-plan.ts";
import { createOracleCache } from "./evalplus-oracle.ts";
import { extractProgram } from "./extract-program.ts";
import type { Sandbox } from "./pool.ts";
import type { CodeTests } from "./tests-schema.ts";
import { parseCodeTests, stringifyExact } from "./tests-schema.ts";
import { stdoutMatches } from "./stdio-compare.ts";
import type { RunLimits, RunOutcome, RunRequest, ScoreResult, Scorer } from "./sandbox-types.ts";
import { DEFAULT_LIMITS, MAX_TIME_LIMIT_MS } from "./sandbox-types.ts";
import { equalsExpected, pyValueSchema } from "./value.ts";
import type { FailedTest, TestPlan, Verdict } from "./verdict.ts";
import { cut, VERDICT_TEXT } from "./verdict.ts";

export interface CodeScoreDetails {
  passed: number;
  total: number;
  /** Tests not run after a syntax error or a time-out. */
  skipped: number;
  /** Sum of the programs' run times (a timed-out test counts its limit). */
  timeMs: number;
  /** The wall limit per test that applied (an item's `timeLimitMs`, capped). */
  limitMs?: number;
  firstFailure: FailedTest | null;
}

export interface CodeScorerOptions {
  sandbox: Sandbox;
  limits?: Partial<RunLimits>;
  /** The most an item's `timeLimitMs` may ask for per test (default 60 s). */
  maxTimeLimitMs?: number;
}

function request(code: string, tests: CaseTests, i: number): RunRequest {
  if (tests.style === "stdio") return { mode: "stdio", code, stdin: tests.cases[i]?.input ?? "" };
  const c = tests.cases[i];
  return {
    mode: "function",
    code,
    name: tests.name,
    argsJson: stringifyExact(c?.args ?? []),
  };
}

/** The verdict, decided here from the plain data the interpreter returned (value.ts). */
function judge(tests: CaseTests, i: number, o: RunOutcome): Verdict {
  if (o.status !== "ok") return o.status;
  if (tests.style === "stdio") {
    const expected = tests.cases[i]?.output ?? "";
    return stdoutMatches(o.stdout, expected, tests.compare ?? "lines") ? "pass" : "wrong_answer";
  }
  if (o.notPlain !== undefined) return "wrong_answer";
  const value = pyValueSchema.safeParse(o.value);
  if (!value.success) return "wrong_answer";
  return equalsExpected(value.data, tests.cases[i]?.expected ?? null) ? "pass" : "wrong_answer";
}

function failure(
  tests: CaseTests,
  i: number,
  verdict: Exclude<Verdict, "pass">,
  o: RunOutcome,
): FailedTest {
  const f: FailedTest = { index: i, verdict, expected: "", actual: "" };
  if (tests.style === "stdio") {
    const c = tests.cases[i];
    f.input = cut(c?.input ?? "");
    f.expected = cut(c?.output ?? "");
    f.actual = cut(o.stdout);
  } else {
    const c = tests.cases[i];
    f.args = cut(stringifyExact(c?.args ?? []));
    f.expected = cut(stringifyExact(c?.expected ?? null));
    f.actual = cut(o.repr ?? "");
    if (o.status === "ok" && o.notPlain !== undefined)
      f.error = cut(`the function returned ${o.notPlain}; only plain values count`);
    else if (o.status === "ok" && !pyValueSchema.safeParse(o.value).success)
      f.error = "the function's value could not be read";
  }
  if (o.error) f.error = cut(o.error);
  return f;
}

/** The stdio and function styles: cases written out in the item. */
type CaseTests = Exclude<CodeTests, { style: "evalplus" | "asserts" }>;

function casePlan(code: string, tests: CaseTests): TestPlan {
  return {
    total: tests.cases.length,
    request: (i) => request(code, tests, i),
    judge: (i, o) => judge(tests, i, o),
    failure: (i, v, o) => failure(tests, i, v, o),
    stopAtFirstFailure: false,
  };
}

const STOPS = new Set<Verdict>([
  "syntax_error",
  "timeout",
  "output_limit",
  "memory_limit",
  "crashed",
]);

function describe(f: FailedTest, total: number): string {
  const what = `${VERDICT_TEXT[f.verdict]} on test ${f.index + 1} of ${total}`;
  return f.error ? `${what}: ${f.error}` : what;
}

/**
 * Bumped by any change that can alter a verdict (results record it). 2: verdicts decided outside
 * the interpreter, a pristine interpreter per answer, limits that hold (see oldScorerNote).
 */
export const CODE_SCORER_VERSION = 2;

/** What to tell a reader of results scored by an older code scorer; null for the current one. */
export function oldScorerNote(scorer: { id: string; version: number }): string | null {
  if (!scorerKind(scorer.id).runsCode || scorer.version >= CODE_SCORER_VERSION) return null;
  return (
    `Scored by code scorer v${scorer.version}, whose sandbox a program could cheat (a value that ` +
    "equals anything, reading the expected value, changing the items after it): re-score these " +
    `results with v${CODE_SCORER_VERSION} before trusting them.`
  );
}

/** A scorer that runs Python answers against the item's `tests` (see tests-schema.ts). */
export function createCodeScorer(opts: CodeScorerOptions): Scorer {
  const base: RunLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const maxTime = opts.maxTimeLimitMs ?? MAX_TIME_LIMIT_MS;
  const oracles = createOracleCache(opts.sandbox);
  // An assert-style item holds two interpreters at once: two such items each holding one of a
  // pool of two would wait on each other for ever, so they take turns.
  let proxyTurn: Promise<unknown> = Promise.resolve();
  return {
    id: "code",
    version: CODE_SCORER_VERSION,
    async score(answer, item, signal): Promise<ScoreResult> {
      const found = extractProgram(answer);
      if (!found.ok) return { correct: false, score: 0, extracted: null, reason: found.reason };
      const { code } = found;
      const parsed = parseCodeTests(item.tests);
      if (!parsed.ok) return { correct: null, score: 0, extracted: code, reason: parsed.message };
      const { tests } = parsed;
      // A question set may not hold the scorer for ten minutes a test: its limit is capped.
      const timeMs = Math.min(tests.timeLimitMs ?? base.timeMs, Math.max(maxTime, base.timeMs));
      const limits = { ...base, timeMs };
      if (tests.style === "asserts") {
        const { name, program } = tests;
        const mine = proxyTurn.then(() =>
          scoreWithProxy({ sandbox: opts.sandbox, code, name, program, limits }, signal),
        );
        proxyTurn = mine.catch(() => undefined);
        return mine;
      }
      let plan: TestPlan;
      if (tests.style === "evalplus") {
        const o = await oracles(tests, limits, signal);
        if (!o.ok) {
          const reason =
            o.code === ErrorCode.aborted ? "cancelled" : `EvalPlus cases: ${o.message}`;
          return { correct: null, score: 0, extracted: code, reason };
        }
        plan = evalplusPlan(code, tests.dataset, o.oracle);
      } else plan = casePlan(code, tests);
      const total = plan.total;
      const details: CodeScoreDetails = {
        passed: 0,
        total,
        skipped: 0,
        timeMs: 0,
        limitMs: timeMs,
        firstFailure: null,
      };
      // One pristine interpreter for this answer's tests, thrown away afterwards.
      const lease = await opts.sandbox.open(signal);
      if (!lease.ok) {
        const reason = lease.code === ErrorCode.aborted ? "cancelled" : lease.message;
        return { correct: null, score: 0, extracted: code, reason, details: { ...details } };
      }
      try {
        for (let i = 0; i < total; i++) {
          const r = await lease.run(plan.request(i), limits, signal);
          if (!r.ok) {
            const reason = r.code === ErrorCode.aborted ? "cancelled" : r.message;
            return { correct: null, score: 0, extracted: code, reason, details: { ...details } };
          }
          const verdict = plan.judge(i, r.outcome);
          details.timeMs += r.outcome.timeMs;
          if (verdict === "pass") {
            details.passed += 1;
            continue;
          }
          if (verdict === "syntax_error" && !found.fenced)
            return { correct: false, score: 0, extracted: null, reason: "no code found" };
          details.firstFailure ??= plan.failure(i, verdict, r.outcome);
          // These end the interpreter (or would end the same way again): the rest is not run.
          // EvalPlus stops at a first failure too (pass@1 is the same; its cases are many).
          if (STOPS.has(verdict) || plan.stopAtFirstFailure) {
            details.skipped = total - i - 1;
            break;
          }
        }
      } finally {
        lease.close();
      }
      const correct = details.passed === total;
      const result: ScoreResult = {
        correct,
        score: correct ? 1 : 0,
        extracted: code,
        details: { ...details },
      };
      if (details.firstFailure) result.reason = describe(details.firstFailure, total);
      return result;
    },
  };
}
