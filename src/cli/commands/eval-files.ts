import { appendFile, readFile, writeFile } from "node:fs/promises";
import { datasetHash } from "../../engine/eval/dataset/hash.ts";
import { detectFormat, mapRows, parseTable } from "../../engine/eval/dataset/parse.ts";
import type { ColumnMapping, EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { parseResult } from "../../engine/eval/schema.ts";
import { ConductorSampleSchema } from "../../engine/eval/training/sample.ts";
import type { ConductorSample } from "../../engine/eval/training/sample.ts";
import { grpoRows, preferenceRows, sftRows } from "../../engine/eval/training/shapes.ts";
import { verlParquet } from "../../engine/eval/training/verl.ts";
import { analyse, evaluationJson } from "../../engine/eval/analysis.ts";
import { reportCsv } from "../../engine/eval/report-text.ts";
import type { Evaluation } from "../../engine/eval/schema.ts";

const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

export type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

/** How a question file's columns are mapped: given, or chosen from the columns the file has. */
type MappingChoice =
  | ColumnMapping
  | ((
      columns: readonly string[],
    ) => { ok: true; mapping: ColumnMapping } | { ok: false; message: string });

/**
 * Reads and maps a question file; bad rows are an error unless `skipBad` (then listed as
 * warnings). The mapping used comes back with the items.
 */
export async function loadDataset(
  file: string,
  mapping: MappingChoice,
  skipBad: boolean,
  warn: (s: string) => void,
): Promise<Loaded<{ items: EvalItem[]; hash: string; mapping: ColumnMapping }>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e: unknown) {
    return { ok: false, message: `Cannot read the dataset ${file}: ${why(e)}` };
  }
  const table = parseTable(text, detectFormat(text, file));
  const chosen =
    typeof mapping === "function" ? mapping(table.columns) : { ok: true as const, mapping };
  if (!chosen.ok) return { ok: false, message: chosen.message };
  const used = chosen.mapping;
  const mapped = mapRows(table.rows, used);
  const bad = [...table.bad, ...mapped.bad].sort((a, b) => a.line - b.line);
  if (bad.length) {
    const list = bad.map((b) => `  line ${b.line}: ${b.message}`).join("\n");
    if (!skipBad)
      return {
        ok: false,
        message: `${bad.length} bad row(s) in ${file}:\n${list}\nFix them, or pass --skip-bad-rows.`,
      };
    warn(`Skipping ${bad.length} bad row(s):\n${list}\n`);
  }
  if (mapped.items.length === 0)
    return {
      ok: false,
      message: `No questions in ${file} (columns seen: ${table.columns.join(", ") || "none"}).`,
    };
  return {
    ok: true,
    value: { items: mapped.items, hash: datasetHash(mapped.items), mapping: used },
  };
}

/** The results already in `--out` (a resumed run); a torn last line from a crash is dropped. */
export async function readResults(file: string, warn: (s: string) => void): Promise<EvalResult[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return [];
  }
  // A torn last line (a crash mid-write) gets its newline, so new lines start clean after it.
  if (text && !text.endsWith("\n")) await appendFile(file, "\n");
  const out: EvalResult[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warn(`Ignoring line ${i + 1} of ${file}: not JSON (an interrupted write?).\n`);
      continue;
    }
    const parsed = parseResult(value);
    if (parsed.success) out.push(parsed.data);
    else warn(`Ignoring line ${i + 1} of ${file}: not a result line.\n`);
  }
  return out;
}

/** A file written one JSON line at a time, in order, so a crash loses at most the last line. */
export function lineWriter(file: string): (value: unknown) => Promise<void> {
  let chain = Promise.resolve();
  return (value) => (chain = chain.then(() => appendFile(file, `${JSON.stringify(value)}\n`)));
}

/** The trainer files written beside a training-data file (the .verl.parquet only when it has samples). */
export function trainerShapeFiles(file: string): string[] {
  const base = file.replace(/\.jsonl$/, "");
  return [
    `${base}.grpo.jsonl`,
    `${base}.sft.jsonl`,
    `${base}.preference.jsonl`,
    `${base}.verl.parquet`,
  ];
}

/** Every sample in the training file (all sessions), then the trainer shapes beside it. */
export async function writeTrainerShapes(file: string, dataSource: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  const samples: ConductorSample[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = ConductorSampleSchema.safeParse(JSON.parse(line));
      if (parsed.success) samples.push(parsed.data);
    } catch {
      // a torn line: skipped, like in --out
    }
  }
  const jsonl = (rows: unknown[]) =>
    rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");
  const written = trainerShapeFiles(file);
  await writeFile(written[0]!, jsonl(grpoRows(samples)));
  await writeFile(written[1]!, jsonl(sftRows(samples)));
  await writeFile(written[2]!, jsonl(preferenceRows(samples)));
  if (samples.length)
    await writeFile(written[3]!, new Uint8Array(await verlParquet(samples, dataSource)));
  return samples.length ? written : written.slice(0, 3);
}

/** `--report FILE`: the report as CSV (one row per strategy) or JSON (with every result). */
export async function writeReport(
  file: string,
  evaluation: Evaluation,
  results: readonly EvalResult[],
): Promise<void> {
  const text = file.endsWith(".csv")
    ? reportCsv(analyse(evaluation, results))
    : evaluationJson(evaluation, results);
  await writeFile(file, text);
}
