/**
 * The `tests` column of a code question set (JSON text or an already parsed value):
 *   {"style":"stdio","cases":[{"input":"1 2\n","output":"3\n"}]}  (optional "compare": "livecodebench")
 *   {"style":"function","name":"add","cases":[{"args":[1,2],"expected":3}]}
 *   {"style":"evalplus","dataset":"humaneval","task":"HumanEval/0","entryPoint":"f",
 *    "solution":"<the canonical program>","test":"<the dataset's test program>"}
 *   (EvalPlus: the cases are the test program's `inputs`, the expected values the canonical
 *   solution's outputs on them; evalplus-oracle.ts)
 *   {"style":"asserts","name":"f","program":"assert f(1) == 2"}  (plain HumanEval and MBPP: the
 *   program runs apart from the answer, calling it through a proxy; assert-proxy.ts)
 * Optional `timeLimitMs` overrides the per-test wall time for the item.
 */
import type { Failure } from "../../errors.ts";
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";

const timeLimitMs = z.number().int().positive().max(600_000).optional();

export const stdioTestsSchema = z.object({
  style: z.literal("stdio"),
  cases: z.array(z.object({ input: z.string().default(""), output: z.string() })).min(1),
  /** How stdout is compared (stdio-compare.ts); `livecodebench` as LiveCodeBench grades it. */
  compare: z.enum(["lines", "livecodebench"]).optional(),
  timeLimitMs,
});

export const functionTestsSchema = z.object({
  style: z.literal("function"),
  /** A function (`add`) or a method of a class built without arguments (`Solution.twoSum`). */
  name: z
    .string()
    .regex(/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)?$/, "a Python name such as add or Solution.twoSum"),
  cases: z.array(z.object({ args: z.array(z.unknown()), expected: z.unknown() })).min(1),
  timeLimitMs,
});

export const evalplusTestsSchema = z.object({
  style: z.literal("evalplus"),
  /** Which special oracles apply (EvalPlus's `dataset` argument). */
  dataset: z.enum(["humaneval", "mbpp"]),
  task: z.string().min(1),
  /** HumanEval+'s `entry_point`; MBPP+'s is read from the test program. */
  entryPoint: z
    .string()
    .regex(/^[A-Za-z_]\w*$/)
    .optional(),
  /** The canonical solution (trusted): it gives the expected values. */
  solution: z.string().min(1),
  /** The dataset's test program: only its `inputs` literal and its tolerance are read. */
  test: z.string().min(1),
  /** The dataset revision the row came from, part of the expected values' cache key. */
  revision: z.string().optional(),
  timeLimitMs,
});

export const assertsTestsSchema = z.object({
  style: z.literal("asserts"),
  /** The function under test; the program sees a proxy under this name and as `candidate`. */
  name: z.string().regex(/^[A-Za-z_]\w*$/),
  /** The test program (trusted): asserts, run in an interpreter of its own (assert-proxy.ts). */
  program: z.string().min(1),
  timeLimitMs,
});

export const codeTestsSchema = z.discriminatedUnion("style", [
  stdioTestsSchema,
  functionTestsSchema,
  evalplusTestsSchema,
  assertsTestsSchema,
]);

export type EvalplusTests = z.infer<typeof evalplusTestsSchema>;

export type CodeTests = z.infer<typeof codeTestsSchema>;

export type ParsedTests = { ok: true; tests: CodeTests } | ({ ok: false } & Failure);

/** Reads a `tests` cell: JSON text or a value; never throws. */
export function parseCodeTests(cell: unknown): ParsedTests {
  let value = cell;
  if (typeof cell === "string") {
    if (!cell.trim())
      return { ok: false, code: ErrorCode.invalid_dataset, message: "the item has no tests" };
    try {
      value = parseJsonExact(cell);
    } catch {
      return {
        ok: false,
        code: ErrorCode.invalid_dataset,
        message: "the tests column is not valid JSON",
      };
    }
  }
  if (value === undefined || value === null)
    return { ok: false, code: ErrorCode.invalid_dataset, message: "the item has no tests" };
  const parsed = codeTestsSchema.safeParse(value);
  if (parsed.success) return { ok: true, tests: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  return {
    ok: false,
    code: ErrorCode.invalid_dataset,
    message: `invalid tests${where}: ${issue?.message ?? "unknown problem"}`,
  };
}

const BIG = "\u0000big:";

/**
 * JSON.parse, except that an integer beyond 2^53 becomes a bigint with every digit (JSON.parse
 * would round it: LiveCodeBench and EvalPlus hold such values, as arguments and expected values).
 */
export function parseJsonExact(text: string): unknown {
  let out = "";
  let from = 0;
  // integer literals outside strings (a string is skipped whole, escapes included)
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    const t = m[0];
    if (t.startsWith('"') || /[.eE]/.test(t) || Number.isSafeInteger(Number(t))) continue;
    // escaped in the text, so JSON.parse makes it BIG
    out += `${text.slice(from, m.index)}"\\u0000big:${t}"`;
    from = m.index + t.length;
  }
  out += text.slice(from);
  return JSON.parse(out, (_k, v: unknown) =>
    typeof v === "string" && v.startsWith(BIG) ? BigInt(v.slice(BIG.length)) : v,
  );
}

/** JSON.stringify that writes a bigint as its digits (a JSON number of any size). */
export function stringifyExact(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) =>
    typeof v === "bigint" ? `${BIG}${v.toString()}` : v,
  );
  return (text ?? "null").replace(/"\\u0000big:(-?\d+)"/g, "$1");
}

/** stdout as compared: trailing whitespace cut from every line, trailing blank lines dropped. */
export function normaliseOutput(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""))
    .join("\n")
    .replace(/\n+$/, "");
}
