/**
 * How a benchmark preset's rows are reshaped before its column mapping reads them (the reshapes
 * are named in presets.ts). Each follows the reference code the preset names.
 */
import { z } from "zod";
import { assertRow } from "./assert-rows.ts";
import { evalplusRow } from "./evalplus-rows.ts";
import type { DateWindow } from "./livecodebench.ts";
import { inWindow, livecodebenchRow } from "./livecodebench.ts";
import type { BadRow, SourceRow } from "./parse.ts";
import type { BenchmarkPreset, PresetReshape } from "./presets.ts";

type SyncReshape = Exclude<
  PresetReshape,
  | "livecodebench_tests"
  | "humanevalplus_tests"
  | "mbppplus_tests"
  | "humaneval_asserts"
  | "mbpp_asserts"
>;

const text = (v: unknown): string =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : "";

// DROP's answer cells, read tolerantly: a field of the wrong type counts as empty.
const DropDateSchema = z
  .object({ day: z.string().catch(""), month: z.string().catch(""), year: z.string().catch("") })
  .catch({ day: "", month: "", year: "" });
const DropAnswerSchema = z
  .object({
    number: z.union([z.string(), z.number()]).catch(""),
    spans: z.array(z.string()).catch([]),
    date: DropDateSchema,
  })
  .catch({ number: "", spans: [], date: { day: "", month: "", year: "" } });
const DropValidatedSchema = z
  .object({
    number: z.array(z.unknown()).catch([]),
    date: z.array(z.unknown()).catch([]),
    spans: z.array(z.unknown()).catch([]),
  })
  .catch({ number: [], date: [], spans: [] });

/** A DROP answer as lighteval's parse_answer reads it: the number, else the spans, else the date. */
function dropAnswer(cell: unknown): string {
  const a = DropAnswerSchema.parse(cell);
  if (text(a.number) !== "") return text(a.number);
  if (a.spans.length) return a.spans.join(", ");
  return [a.date.day, a.date.month, a.date.year].join(" ").trim();
}

/** DROP's validated answers are columns of lists; one answer per index, as lighteval flattens them. */
function dropValidated(cell: unknown): string[] {
  const v = DropValidatedSchema.parse(cell);
  return v.number.map((number, i) => dropAnswer({ number, date: v.date[i], spans: v.spans[i] }));
}

/** GPQA's options, the correct one first (index 0 is the reference); cells trimmed. */
function gpqaRow(r: SourceRow): SourceRow {
  const v = r.values;
  const options = [
    v["Correct Answer"],
    v["Incorrect Answer 1"],
    v["Incorrect Answer 2"],
    v["Incorrect Answer 3"],
  ].map((c) => text(c).trim());
  // A row missing an option cannot be posed fairly: its question is emptied, a listed bad row.
  const whole = options.every(Boolean);
  return {
    ...r,
    values: {
      ...v,
      Question: whole ? text(v.Question) : "",
      choices: options,
      answer: 0,
    },
  };
}

function reshapeRow(reshape: SyncReshape, preset: BenchmarkPreset, r: SourceRow): SourceRow {
  const v = r.values;
  const answerColumn = preset.mapping.answer ?? "answer";
  switch (reshape) {
    case "final_answer_after_hashes": {
      const a = v[answerColumn];
      if (typeof a !== "string" || !a.includes("####")) return r;
      const after = a.slice(a.lastIndexOf("####") + 4).trim();
      return { ...r, values: { ...v, [answerColumn]: after } };
    }
    case "drop_passage_answers": {
      const answers = [dropAnswer(v.answer), ...dropValidated(v.validated_answers)];
      const distinct = [...new Set(answers.filter(Boolean))];
      const [passage, asked] = [text(v.passage).trim(), text(v.question).trim()];
      // Without its passage or its question a row cannot be posed: an empty question marks it bad.
      const question = passage && asked ? `Passage: ${passage}\nQuestion: ${asked}` : "";
      return {
        ...r,
        values: { ...v, [preset.mapping.question]: question, [answerColumn]: distinct.join(" | ") },
      };
    }
    case "gpqa_choices":
      return gpqaRow(r);
  }
}

/** What reshaping a preset's rows gives: the rows to map, and the rows that could not be read. */
export interface PresetRows {
  rows: SourceRow[];
  bad: BadRow[];
}

/** Options of a preset's read: LiveCodeBench's contest-date window; the Hub revision read. */
export interface PresetRowOptions {
  window?: DateWindow;
  revision?: string;
}

/**
 * A preset's rows as its mapping reads them (reshaped as `reshape` says; else unchanged). Rows a
 * reshape cannot read come back as bad rows with the reason; rows outside a date window are left out.
 */
export async function presetRows(
  preset: BenchmarkPreset,
  rows: readonly SourceRow[],
  options: PresetRowOptions = {},
): Promise<PresetRows> {
  const reshape = preset.reshape;
  if (!reshape) return { rows: [...rows], bad: [] };
  const out: PresetRows = { rows: [], bad: [] };
  const evalplus = reshape === "humanevalplus_tests" || reshape === "mbppplus_tests";
  if (evalplus || reshape === "humaneval_asserts" || reshape === "mbpp_asserts") {
    const dataset = reshape.startsWith("humaneval") ? "humaneval" : "mbpp";
    for (const r of rows) {
      const read = evalplus ? evalplusRow(dataset, r, options.revision) : assertRow(dataset, r);
      if (read.ok) out.rows.push(read.value);
      else out.bad.push({ line: r.line, message: read.message });
    }
    return out;
  }
  if (reshape !== "livecodebench_tests")
    return { rows: rows.map((r) => reshapeRow(reshape, preset, r)), bad: [] };
  for (const r of rows) {
    if (options.window && !inWindow(r, options.window)) continue;
    const read = await livecodebenchRow(r);
    if (read.ok) out.rows.push(read.value);
    else out.bad.push({ line: r.line, message: read.message });
  }
  return out;
}
