/**
 * The `tests` column of a code question set (JSON text or an already parsed value):
 *   {"style":"stdio","cases":[{"input":"1 2\n","output":"3\n"}]}  (optional "compare": "livecodebench")
 *   {"style":"function","name":"add","cases":[{"args":[1,2],"expected":3}]}
 * Optional `timeLimitMs` overrides the per-test wall time for the item.
 */
import { z } from "zod";

const timeLimitMs = z.number().int().positive().max(600_000).optional();

export const stdioTestsSchema = z.object({
  style: z.literal("stdio"),
  cases: z.array(z.object({ input: z.string().default(""), output: z.string() })).min(1),
  /** How stdout is compared (stdio-compare.ts); `livecodebench` as LiveCodeBench grades it. */
  compare: z.enum(["lines", "livecodebench"]).default("lines"),
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

export const codeTestsSchema = z.discriminatedUnion("style", [
  stdioTestsSchema,
  functionTestsSchema,
]);

export type CodeTests = z.infer<typeof codeTestsSchema>;

export type ParsedTests = { ok: true; tests: CodeTests } | { ok: false; message: string };

/** Reads a `tests` cell: JSON text or a value; never throws. */
export function parseCodeTests(cell: unknown): ParsedTests {
  let value = cell;
  if (typeof cell === "string") {
    if (!cell.trim()) return { ok: false, message: "the item has no tests" };
    try {
      value = JSON.parse(cell) as unknown;
    } catch {
      return { ok: false, message: "the tests column is not valid JSON" };
    }
  }
  if (value === undefined || value === null) return { ok: false, message: "the item has no tests" };
  const parsed = codeTestsSchema.safeParse(value);
  if (parsed.success) return { ok: true, tests: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  return { ok: false, message: `invalid tests${where}: ${issue?.message ?? "unknown problem"}` };
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
