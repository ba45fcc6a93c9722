import { z } from "zod";

/** What the code scorer found for one answer (its `details`), kept with the item's result. */
export const CodeResultSchema = z.object({
  passed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Tests not run after a syntax error or a time-out (they count as failed). */
  skipped: z.number().int().nonnegative().default(0),
  /** The programs' run time in all, in milliseconds. */
  timeMs: z.number().nonnegative(),
  /** The first failing test, its texts cut to a readable length; null when all passed. */
  firstFailure: z
    .object({
      index: z.number().int().nonnegative(),
      verdict: z.string(),
      input: z.string().optional(),
      args: z.string().optional(),
      expected: z.string(),
      actual: z.string(),
      error: z.string().optional(),
    })
    .nullable(),
});
export type CodeResult = z.infer<typeof CodeResultSchema>;
