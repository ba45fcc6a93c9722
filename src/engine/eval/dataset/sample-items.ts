import type { EvalItem } from "./item-schema.ts";

/** A sample item's id: its set's prefix and its place from 1, in two digits (`math-01`). */
export const sampleId = (prefix: string, index: number): string =>
  `${prefix}-${String(index + 1).padStart(2, "0")}`;

/** Question and reference pairs as items of one kind, numbered in the order written. */
export const answerItems = (
  prefix: string,
  kind: string,
  rows: readonly (readonly [question: string, expected: string])[],
): EvalItem[] =>
  rows.map(([question, expected], i) => ({ id: sampleId(prefix, i), question, expected, kind }));
