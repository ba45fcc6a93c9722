/**
 * An answer's run through EvalPlus's cases: each case calls the task's function with the case's
 * arguments in their exact types (`exact` runs), and the verdict compares the returned value with
 * the canonical solution's (evalplus-compare.ts), in the engine.
 */
import { evalplusPasses } from "./evalplus-compare.ts";
import type { EvalplusOracle } from "./evalplus-oracle.ts";
import { exactValueSchema, pyRepr } from "./exact-value.ts";
import type { FailedTest, TestPlan } from "./verdict.ts";
import { cut } from "./verdict.ts";

/** The plan for `code` against a task's cases. */
export function evalplusPlan(
  code: string,
  dataset: "humaneval" | "mbpp",
  oracle: EvalplusOracle,
): TestPlan {
  const { name, atol, cases } = oracle;
  return {
    total: cases.length,
    request: (i) => ({
      mode: "function",
      code,
      name,
      argsJson: JSON.stringify(cases[i]?.args ?? []),
      exact: true,
    }),
    judge(i, o) {
      if (o.status !== "ok") return o.status;
      const value = exactValueSchema.safeParse(o.value);
      if (o.notPlain !== undefined || !value.success) return "wrong_answer";
      const c = cases[i];
      return c && evalplusPasses({ dataset, name, atol }, c.args, value.data, c.expected)
        ? "pass"
        : "wrong_answer";
    },
    failure(i, verdict, o): FailedTest {
      const c = cases[i];
      const f: FailedTest = {
        index: i,
        verdict,
        args: cut((c?.args ?? []).map(pyRepr).join(", ")),
        expected: cut(c?.repr ?? ""),
        actual: cut(o.repr ?? ""),
      };
      if (o.status === "ok" && o.notPlain !== undefined)
        f.error = cut(`the function returned ${o.notPlain}; only plain values count`);
      if (o.error) f.error = cut(o.error);
      return f;
    },
    stopAtFirstFailure: true,
  };
}
