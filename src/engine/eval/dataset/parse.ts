import type { Failure } from "../../errors.ts";
import { ErrorCode } from "../../errors.ts";
import Papa from "papaparse";
import { isObject } from "../../schema/guards.ts";
import type { ColumnMapping, EvalItem } from "./item-schema.ts";

export type DatasetFormat = "jsonl" | "json" | "csv";

/** One source row with the line it starts on (1-based; for JSON arrays, the element's position). */
export interface SourceRow {
  line: number;
  values: Record<string, unknown>;
}

export interface BadRow {
  line: number;
  message: string;
}

export interface ParsedTable {
  format: DatasetFormat;
  /** Every column name seen, in first-seen order. */
  columns: string[];
  rows: SourceRow[];
  /** Rows that could not be read at all (bad JSON, ragged CSV). */
  bad: BadRow[];
}

/** Guesses the format from a file name, then from the content. */
export function detectFormat(text: string, fileName?: string): DatasetFormat {
  const ext = fileName?.toLowerCase().split(".").pop();
  if (ext === "jsonl" || ext === "ndjson") return "jsonl";
  if (ext === "json") return "json";
  if (ext === "csv" || ext === "tsv") return "csv";
  const t = text.trimStart();
  if (t.startsWith("[")) return "json";
  if (t.startsWith("{")) {
    const first = t.split("\n", 1)[0]!.trim();
    return first.endsWith("}") ? "jsonl" : "json";
  }
  return "csv";
}

function columnsOf(rows: SourceRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.values)) seen.add(k);
  return [...seen];
}

function parseJsonl(text: string): ParsedTable {
  const rows: SourceRow[] = [];
  const bad: BadRow[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) rows.push({ line: i + 1, values: value });
      else bad.push({ line: i + 1, message: "The line is JSON but not an object." });
    } catch (e: unknown) {
      bad.push({
        line: i + 1,
        message: `Not valid JSON (${e instanceof Error ? e.message : "parse error"}).`,
      });
    }
  });
  return { format: "jsonl", columns: columnsOf(rows), rows, bad };
}

function parseJson(text: string): ParsedTable {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e: unknown) {
    const message = `The file is not valid JSON (${e instanceof Error ? e.message : "parse error"}).`;
    return { format: "json", columns: [], rows: [], bad: [{ line: 1, message }] };
  }
  // Accept a bare array or the common wrappers {rows: [...]}, {data: [...]}, {questions: [...]}.
  const list = Array.isArray(value)
    ? value
    : isObject(value)
      ? [value.rows, value.data, value.questions, value.items].find(Array.isArray)
      : undefined;
  if (!Array.isArray(list))
    return {
      format: "json",
      columns: [],
      rows: [],
      bad: [{ line: 1, message: "Expected an array of objects." }],
    };
  const rows: SourceRow[] = [];
  const bad: BadRow[] = [];
  list.forEach((v: unknown, i) => {
    // Hugging Face rows-API elements wrap the row: {row_idx, row: {...}}.
    const row = isObject(v) && isObject(v.row) && "row_idx" in v ? v.row : v;
    if (isObject(row)) rows.push({ line: i + 1, values: row });
    else bad.push({ line: i + 1, message: "The element is not an object." });
  });
  return { format: "json", columns: columnsOf(rows), rows, bad };
}

function lineAt(text: string, offset: number, from: { offset: number; line: number }): number {
  let line = from.line;
  for (let i = from.offset; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) line++;
  from.offset = offset;
  from.line = line;
  return line;
}

function parseCsv(text: string): ParsedTable {
  const rows: SourceRow[] = [];
  const bad: BadRow[] = [];
  const pos = { offset: 0, line: 1 };
  // The header is line 1: the first data row starts after it.
  let start = text.indexOf("\n") + 1;
  let columns: string[] = [];
  Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: "greedy",
    delimiter: "",
    step: (result) => {
      const line = lineAt(text, start, pos);
      start = result.meta.cursor;
      columns = result.meta.fields ?? columns;
      // Skip the newline(s) between the header or previous row and this one.
      while (text[start] === "\n" || text[start] === "\r") start++;
      const err = result.errors[0];
      if (err) bad.push({ line, message: err.message });
      else rows.push({ line, values: result.data });
    },
  });
  return { format: "csv", columns, rows, bad };
}

/** Reads a question file into rows without interpreting any column. Never throws on user data. */
export function parseTable(text: string, format: DatasetFormat): ParsedTable {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  switch (format) {
    case "jsonl":
      return parseJsonl(body);
    case "json":
      return parseJson(body);
    case "csv":
      return parseCsv(body);
  }
}

function asText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** Choices as a list: a JSON array, a JSON array in a string, or a string split on `|` or newlines. */
export function choicesOf(v: unknown): string[] | undefined | null {
  if (v === undefined || v === null || v === "") return undefined;
  let list: unknown = v;
  if (typeof v === "string") {
    const t = v.trim();
    if (t.startsWith("[")) {
      try {
        list = JSON.parse(t);
      } catch {
        return null;
      }
    } else
      list = t
        .split(t.includes("|") ? "|" : "\n")
        .map((s) => s.trim())
        .filter(Boolean);
  }
  if (!Array.isArray(list)) return null;
  const out = list.map(asText);
  return out.every((s): s is string => s !== undefined) ? out : null;
}

export interface MappedRows {
  items: EvalItem[];
  bad: BadRow[];
}

/** Applies a column mapping: each row becomes an item or a bad row with its line and why. */
export function mapRows(rows: readonly SourceRow[], mapping: ColumnMapping): MappedRows {
  const items: EvalItem[] = [];
  const bad: BadRow[] = [];
  const ids = new Set<string>();
  for (const [n, r] of rows.entries()) {
    const v = r.values;
    const question = asText(v[mapping.question])?.trim();
    if (!question) {
      bad.push({
        line: r.line,
        message: `The question column "${mapping.question}" is empty or missing.`,
      });
      continue;
    }
    const id = (mapping.id ? asText(v[mapping.id])?.trim() : undefined) || String(n + 1);
    if (ids.has(id)) {
      bad.push({ line: r.line, message: `The id "${id}" is used by an earlier row.` });
      continue;
    }
    const choices = mapping.choices ? choicesOf(v[mapping.choices]) : undefined;
    if (choices === null) {
      bad.push({ line: r.line, message: `The choices column "${mapping.choices}" is not a list.` });
      continue;
    }
    ids.add(id);
    const expected = mapping.answer ? asText(v[mapping.answer]) : undefined;
    const kind = mapping.kind ? asText(v[mapping.kind]) : undefined;
    const tests = mapping.tests ? v[mapping.tests] : undefined;
    const category = mapping.category ? asText(v[mapping.category])?.trim() : undefined;
    items.push({
      id,
      question,
      ...(expected !== undefined ? { expected } : {}),
      ...(choices ? { choices } : {}),
      ...(kind ? { kind } : {}),
      ...(tests !== undefined && tests !== "" ? { tests } : {}),
      ...(category ? { category } : {}),
    });
  }
  return { items, bad };
}

/** Maps "question=q,answer=a" onto the defaults. Unknown field names are reported. */
export function parseColumnsOption(
  text: string,
  defaults: ColumnMapping,
): { ok: true; mapping: ColumnMapping } | ({ ok: false } & Failure) {
  const mapping: ColumnMapping = { ...defaults };
  for (const pair of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    const field = pair.slice(0, at).trim();
    const column = pair.slice(at + 1).trim();
    if (at <= 0 || !column)
      return {
        ok: false,
        code: ErrorCode.invalid_argument,
        message: `Bad column mapping "${pair}": expected FIELD=COLUMN.`,
      };
    if (!["question", "answer", "choices", "id", "kind", "tests", "category"].includes(field))
      return {
        ok: false,
        code: ErrorCode.invalid_argument,
        message: `Unknown field "${field}" (question, answer, choices, id, kind, tests, category).`,
      };
    mapping[field as keyof ColumnMapping] = column;
  }
  return { ok: true, mapping };
}
