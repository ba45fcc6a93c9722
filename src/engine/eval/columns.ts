// Which column of a question file holds each field: one rule for the studio's setup form and the
// CLI's eval, so a file maps the same wherever it is run.
import { parseColumnsOption } from "./dataset/parse.ts";
import type { ColumnMapping } from "./dataset/item-schema.ts";
import { DEFAULT_COLUMNS } from "./dataset/item-schema.ts";

/** The names each field is found under (case ignored), the preferred name first. */
export const COLUMN_NAMES: Readonly<Record<keyof ColumnMapping, readonly string[]>> = {
  question: ["question", "problem", "prompt", "input", "q"],
  answer: ["answer", "solution", "expected", "target", "label", "gold", "a"],
  choices: ["choices", "options"],
  id: ["id", "key", "uid", "question_id"],
  kind: ["kind", "type"],
  tests: ["tests", "test_cases"],
  category: ["category", "subject", "topic", "domain"],
};

function byName(columns: readonly string[], names: readonly string[]): string | undefined {
  for (const name of names) {
    const found = columns.find((c) => c.toLowerCase() === name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Each field's column in a file with these columns, found by name (the first name of
 * COLUMN_NAMES that a column has wins, so "question" beats "prompt"). The question falls back
 * to the first column no other field claims; other fields not found are not read.
 */
export function guessColumns(columns: readonly string[]): ColumnMapping {
  const others = {
    answer: byName(columns, COLUMN_NAMES.answer),
    choices: byName(columns, COLUMN_NAMES.choices),
    id: byName(columns, COLUMN_NAMES.id),
    kind: byName(columns, COLUMN_NAMES.kind),
    tests: byName(columns, COLUMN_NAMES.tests),
    category: byName(columns, COLUMN_NAMES.category),
  };
  // Without a question-like name, the first column that no other field claims (so never the id).
  const claimed = new Set(Object.values(others));
  const question =
    byName(columns, COLUMN_NAMES.question) ??
    columns.find((c) => !claimed.has(c)) ??
    DEFAULT_COLUMNS.question;
  return { question, ...others };
}

/** The guessed mapping with a FIELD=COLUMN list (the CLI's --columns) over it; or why the list is bad. */
export function columnsOf(
  columns: readonly string[],
  explicit: string,
): ReturnType<typeof parseColumnsOption> {
  return parseColumnsOption(explicit, guessColumns(columns));
}

/** "question=problem, answer=solution": the fields a mapping reads, in the schema's order. */
export function columnsText(mapping: ColumnMapping): string {
  return (Object.keys(COLUMN_NAMES) as (keyof ColumnMapping)[])
    .flatMap((field) => (mapping[field] ? [`${field}=${mapping[field]}`] : []))
    .join(", ");
}

/**
 * The line that says which columns a file was read by, when any field came from a column named
 * otherwise (a guess is never silent); null when every field was read under its own name.
 */
export function columnsNote(mapping: ColumnMapping): string | null {
  const renamed = Object.entries(mapping).some(([field, column]) => column && column !== field);
  return renamed ? `Columns: ${columnsText(mapping)} (--columns overrides).` : null;
}
