import { z } from "zod";

/** One question of an evaluation set, after column mapping. */
export const EvalItemSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  /** The reference answer; absent for an LLM-judged or code-tested item. */
  expected: z.string().optional(),
  /** Multiple-choice options in the file's order (shuffled per item with a recorded seed). */
  choices: z.array(z.string()).optional(),
  /** A free label such as "math", "mc" or "factual" that picks a default scorer. */
  kind: z.string().optional(),
  /** Test cases for a code scorer (issue 14), kept as they came. */
  tests: z.unknown().optional(),
  /** A category or subject the report groups by (not hashed: it never changes a verdict). */
  category: z.string().optional(),
});
export type EvalItem = z.infer<typeof EvalItemSchema>;

/** Which source column holds each field; unset optional fields are not read. */
export const ColumnMappingSchema = z.object({
  question: z.string().min(1),
  answer: z.string().optional(),
  choices: z.string().optional(),
  id: z.string().optional(),
  kind: z.string().optional(),
  tests: z.string().optional(),
  category: z.string().optional(),
});
export type ColumnMapping = z.infer<typeof ColumnMappingSchema>;

/** The default column names (the CLI's `--columns` overrides them). */
export const DEFAULT_COLUMNS: ColumnMapping = {
  question: "question",
  answer: "answer",
  choices: "choices",
  id: "id",
  kind: "kind",
  tests: "tests",
  category: "category",
};

/** A question set ready to run: its items and a hash of its content, recorded with the results. */
export interface QuestionSet {
  name: string;
  items: EvalItem[];
  hash: string;
}
