/**
 * EvalPlus's Hub rows as code items (`evalplus/humanevalplus`, `evalplus/mbppplus`):
 * - HumanEval+: task_id, prompt (signature and docstring), canonical_solution, entry_point, test;
 *   the canonical program is prompt + canonical_solution, as evalplus/evaluate.py builds it;
 * - MBPP+: task_id, prompt (the task in words), code (the canonical program), test_list (MBPP's
 *   asserts, the first of which EvalPlus shows the model, naming the function), test.
 * `test` is the test program EvalPlus generates (`inputs = [...]`, `results = [...]`, an assertion
 * loop); the scorer reads only its literals (evalplus-oracle.ts).
 */
import { ErrorCode } from "../../errors.ts";
import { z } from "zod";
import type { Decoded } from "./livecodebench.ts";
import type { SourceRow } from "./parse.ts";

const HumanevalRowSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string().min(1),
  canonical_solution: z.string().min(1),
  entry_point: z.string().regex(/^[A-Za-z_]\w*$/),
  test: z.string().min(1),
});

const MbppRowSchema = z.object({
  task_id: z.union([z.number().int(), z.string().min(1)]),
  prompt: z.string().min(1),
  code: z.string().min(1),
  test_list: z.array(z.string()).catch([]),
  test: z.string().min(1),
});

function problem(e: z.ZodError): string {
  const issue = e.issues[0];
  return `not an EvalPlus row: ${issue?.path.join(".") || "row"} ${issue?.message ?? ""}`.trim();
}

/**
 * One row with `question` and `tests` (style "evalplus") added; `revision` (the Hub commit read)
 * becomes part of the key the expected values are cached under.
 */
export function evalplusRow(
  dataset: "humaneval" | "mbpp",
  r: SourceRow,
  revision?: string,
): Decoded<SourceRow> {
  const rev = revision ? { revision } : {};
  if (dataset === "humaneval") {
    const p = HumanevalRowSchema.safeParse(r.values);
    if (!p.success)
      return { ok: false, code: ErrorCode.invalid_dataset, message: problem(p.error) };
    const v = p.data;
    const tests = {
      style: "evalplus",
      dataset,
      task: v.task_id,
      entryPoint: v.entry_point,
      solution: v.prompt + v.canonical_solution,
      test: v.test,
      ...rev,
    };
    return {
      ok: true,
      value: { ...r, values: { ...r.values, question: v.prompt, id: v.task_id, tests } },
    };
  }
  const p = MbppRowSchema.safeParse(r.values);
  if (!p.success) return { ok: false, code: ErrorCode.invalid_dataset, message: problem(p.error) };
  const v = p.data;
  const task = typeof v.task_id === "number" ? `Mbpp/${v.task_id}` : v.task_id;
  // EvalPlus's MBPP+ prompt: the task, then its first assert (which names the function).
  const question = [v.prompt.trim(), v.test_list[0]?.trim()].filter(Boolean).join("\n");
  const tests = { style: "evalplus", dataset, task, solution: v.code, test: v.test, ...rev };
  return { ok: true, value: { ...r, values: { ...r.values, question, id: task, tests } } };
}
