// A test's verdict and how it reads: the words a failing verdict takes, the first failure cut to a
// readable length, and the plan by which one answer's tests run (scorer.ts runs it; evalplus-plan.ts
// and assert-proxy.ts build theirs).
import type { RunOutcome, RunRequest } from "./sandbox-types.ts";

export type Verdict = "pass" | "wrong_answer" | Exclude<RunOutcome["status"], "ok">;

/** The first failing test, cut to a readable length. */
export interface FailedTest {
  index: number;
  verdict: Exclude<Verdict, "pass">;
  input?: string;
  args?: string;
  expected: string;
  actual: string;
  error?: string;
}

const CUT = 300;
export function cut(s: string, n = CUT): string {
  return s.length <= n ? s : `${s.slice(0, n)}… (${s.length - n} more characters)`;
}

/**
 * How one answer's tests run: the request per test, the verdict on its outcome (decided here,
 * outside the interpreter), the failure's description, and whether the first failure ends the item.
 */
export interface TestPlan {
  total: number;
  request(i: number): RunRequest;
  judge(i: number, o: RunOutcome): Verdict;
  failure(i: number, verdict: Exclude<Verdict, "pass">, o: RunOutcome): FailedTest;
  stopAtFirstFailure: boolean;
}

/** How a failing test's verdict reads in a reason. */
export const VERDICT_TEXT: Record<Exclude<Verdict, "pass">, string> = {
  wrong_answer: "wrong answer",
  syntax_error: "syntax error",
  runtime_error: "runtime error",
  timeout: "time limit exceeded",
  output_limit: "output limit exceeded",
  memory_limit: "memory limit exceeded",
  crashed: "the interpreter crashed",
};
