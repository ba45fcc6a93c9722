/**
 * LiveCodeBench's code-generation rows (`livecodebench/code_generation_lite`) as code items, read
 * as its own loader reads them (lcb_runner/benchmarks/code_generation.py):
 * - `public_test_cases`: JSON text, a list of {input, output, testtype};
 * - `private_test_cases`: JSON text, or else base64 of zlib of a pickled JSON string;
 * - `metadata`: JSON text whose `func_name` names the method a `functional` test calls;
 * - a `stdin` test feeds `input` on stdin and compares stdout line by line as LiveCodeBench does
 *   (`compare: "livecodebench"`); a `functional` test calls `Solution().func_name(*args)` with one
 *   JSON value per line of `input`, against the JSON value `output`.
 * Numbers in the tests keep their text: the tests column is built from the raw JSON, so an integer
 * beyond 2^53 reaches the scorer exactly as the dataset wrote it.
 */
import type { Failure } from "../../errors.ts";
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";
import { readPickledString } from "./pickle-string.ts";
import type { SourceRow } from "./parse.ts";

const TestSchema = z.object({
  input: z.string(),
  output: z.string(),
  testtype: z.enum(["stdin", "functional"]),
});
type LcbTest = z.infer<typeof TestSchema>;
const TestsSchema = z.array(TestSchema);

export type Decoded<T> = { ok: true; value: T } | ({ ok: false } & Failure);

function base64Bytes(text: string): Uint8Array | null {
  try {
    const binary = atob(text.replace(/\s+/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array | null> {
  try {
    const stream = new Blob([bytes as BlobPart])
      .stream()
      .pipeThrough(new DecompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return null;
  }
}

function testsFromList(value: unknown, what: string): Decoded<LcbTest[]> {
  const parsed = TestsSchema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : {
        ok: false,
        code: ErrorCode.invalid_dataset,
        message: `${what} are not a list of {input, output, testtype}`,
      };
}

function testsFromJson(text: string, what: string): Decoded<LcbTest[]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: ErrorCode.invalid_dataset, message: `${what} are not JSON` };
  }
  return testsFromList(value, what);
}

/**
 * A tests cell as LiveCodeBench's loader reads it: JSON first, else base64 → zlib → a pickled
 * string holding JSON. Only that pickle shape is read (pickle-string.ts); anything else is refused.
 */
export async function decodeLcbTests(cell: unknown, what: string): Promise<Decoded<LcbTest[]>> {
  if (cell === undefined || cell === null || cell === "") return { ok: true, value: [] };
  if (Array.isArray(cell)) return testsFromList(cell, what);
  if (typeof cell !== "string")
    return { ok: false, code: ErrorCode.invalid_dataset, message: `${what} are not text` };
  const t = cell.trim();
  if (t.startsWith("[")) return testsFromJson(t, what);
  const bytes = base64Bytes(t);
  if (!bytes)
    return {
      ok: false,
      code: ErrorCode.invalid_dataset,
      message: `${what} are neither JSON nor base64`,
    };
  const raw = await inflate(bytes);
  if (!raw)
    return {
      ok: false,
      code: ErrorCode.invalid_dataset,
      message: `${what} are base64 but not zlib data`,
    };
  const pickled = readPickledString(raw);
  if (!pickled.ok)
    return { ok: false, code: ErrorCode.invalid_dataset, message: `${what}: ${pickled.message}` };
  return testsFromJson(pickled.value, what);
}

/** The JSON text of one value, checked to be JSON and kept as written (big integers stay exact). */
function rawJson(text: string): string | null {
  const t = text.trim();
  try {
    JSON.parse(t);
    return t;
  } catch {
    return null;
  }
}

/** The `tests` column's JSON text for one row's tests (all of one style, as in LiveCodeBench). */
function testsJson(tests: LcbTest[], funcName: string | null, starter: string): Decoded<string> {
  if (tests.length === 0)
    return { ok: false, code: ErrorCode.invalid_dataset, message: "the row has no tests" };
  const styles = new Set(tests.map((t) => t.testtype));
  if (styles.size > 1)
    return {
      ok: false,
      code: ErrorCode.invalid_dataset,
      message: "the row mixes stdin and functional tests",
    };
  if (tests[0]?.testtype === "stdin") {
    const cases = tests.map((t) => ({ input: t.input, output: t.output }));
    return { ok: true, value: JSON.stringify({ style: "stdio", compare: "livecodebench", cases }) };
  }
  if (!funcName)
    return {
      ok: false,
      code: ErrorCode.invalid_dataset,
      message: "functional tests but no metadata.func_name",
    };
  const name = /^\s*class\s+Solution\b/m.test(starter) ? `Solution.${funcName}` : funcName;
  const cases: string[] = [];
  for (const [i, t] of tests.entries()) {
    const args = t.input.split("\n").map(rawJson);
    const expected = rawJson(t.output);
    if (args.some((a) => a === null) || expected === null)
      return {
        ok: false,
        code: ErrorCode.invalid_dataset,
        message: `functional test ${i + 1} is not one JSON value per line`,
      };
    cases.push(`{"args":[${args.join(",")}],"expected":${expected}}`);
  }
  return {
    ok: true,
    value: `{"style":"function","name":${JSON.stringify(name)},"cases":[${cases.join(",")}]}`,
  };
}

const MetadataSchema = z.object({ func_name: z.string().min(1).optional() }).catch({});

function funcNameOf(cell: unknown): string | null {
  let value = cell;
  if (typeof cell === "string") {
    try {
      value = JSON.parse(cell || "{}");
    } catch {
      return null;
    }
  }
  return MetadataSchema.parse(value).func_name ?? null;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** The question as posed: the problem, then how the program must take its input. */
function lcbQuestion(content: string, starter: string): string {
  const format = starter.trim()
    ? `Complete this starter code; your program must keep its class and method names:\n\`\`\`python\n${starter.trim()}\n\`\`\``
    : "Read the input from stdin and write the answer to stdout. Do not test on the sample inputs.";
  return `${content.trim()}\n\n${format}`;
}

/** A contest-date window, as LiveCodeBench's runner selects problems (`--start_date`, `--end_date`). */
export interface DateWindow {
  since?: string;
  until?: string;
}

/** Whether a row's `contest_date` (ISO text) falls in the window; days compare as text. */
export function inWindow(row: SourceRow, w: DateWindow): boolean {
  const day = text(row.values.contest_date).slice(0, 10);
  if (w.since && !(day >= w.since)) return false;
  if (w.until && !(day <= w.until)) return false;
  return true;
}

/**
 * One LiveCodeBench row reshaped: `question` posed with its starter code, `tests` the JSON text of
 * its public and private tests; or why the row cannot be read.
 */
export async function livecodebenchRow(r: SourceRow): Promise<Decoded<SourceRow>> {
  const v = r.values;
  const bad = (message: string) => ({
    ok: false as const,
    code: ErrorCode.invalid_dataset,
    message,
  });
  const pub = await decodeLcbTests(v.public_test_cases, "the public tests");
  if (!pub.ok) return bad(pub.message);
  const priv = await decodeLcbTests(v.private_test_cases, "the private tests");
  if (!priv.ok) return bad(priv.message);
  const starter = text(v.starter_code);
  const tests = testsJson([...pub.value, ...priv.value], funcNameOf(v.metadata), starter);
  if (!tests.ok) return bad(tests.message);
  const content = text(v.question_content);
  if (!content.trim()) return bad("the row has no question_content");
  return {
    ok: true,
    value: { ...r, values: { ...v, question: lcbQuestion(content, starter), tests: tests.value } },
  };
}
