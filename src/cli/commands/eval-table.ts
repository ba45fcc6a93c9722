// `conductor-studio eval-table`: the paper's Table 1 from several evaluations (one per benchmark).
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { EvaluationSchema, latestResults, upgradeEvaluation } from "../../engine/eval/schema.ts";
import { table1, table1Csv, table1Markdown } from "../../engine/eval/table1.ts";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { readResults } from "./eval-files.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { outputProblem } from "../output-paths.ts";

const HELP = `The paper's Table 1 on your own pool: strategies down, benchmarks across, each cell the
accuracy with its 95% interval and the cost per question.

Usage: conductor-studio eval-table RESULTS.jsonl... [--csv] [--out FILE]

Options:
  --csv        write CSV (one row per strategy and benchmark) instead of Markdown
  --out FILE   write the table to FILE (.csv is CSV) instead of printing it

Each RESULTS file is an eval --out file with its .eval.json beside it; a preset's evaluation is
named by its benchmark (eval --preset), any other by its dataset.

${exitCodesHelp({
  [EXIT.ok]: "the table was written",
  [EXIT.usage]: "a bad option, a file without results or without its .eval.json",
})}
Examples:
  conductor-studio eval-table lcb.jsonl gpqa.jsonl humaneval.jsonl mbpp.jsonl
  conductor-studio eval-table lcb.jsonl gpqa.jsonl --out table1.csv
`;

async function definition(file: string): Promise<Evaluation> {
  const text = await readFile(`${file}.eval.json`, "utf8").catch(() => null);
  if (text === null) throw new UsageError(`${file}.eval.json is missing: it names the benchmark.`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UsageError(`${file}.eval.json is not JSON.`);
  }
  const parsed = EvaluationSchema.safeParse(upgradeEvaluation(raw));
  if (!parsed.success) throw new UsageError(`${file}.eval.json is not an evaluation definition.`);
  return parsed.data;
}

async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { csv: { type: "boolean", default: false }, out: { type: "string" } },
  });
  if (positionals.length === 0) throw new UsageError("eval-table takes one or more results files.");
  const out = values.out;
  if (out) {
    const problem = await outputProblem([out], positionals);
    if (problem) throw new UsageError(problem);
  }
  const runs = [];
  for (const file of positionals) {
    const results = latestResults(await readResults(file, io.stderr));
    if (results.length === 0) throw new UsageError(`${file} holds no results.`);
    runs.push({ evaluation: await definition(file), results });
  }
  const t = table1(runs);
  const csv = values.csv || (out?.toLowerCase().endsWith(".csv") ?? false);
  const text = csv ? table1Csv(t) : table1Markdown(t);
  if (out) await writeFile(out, text);
  else io.stdout(text);
  return EXIT.ok;
}

/** `conductor-studio eval-table RESULTS...`: Table 1 from one evaluation per benchmark. */
export const evalTableCommand: CliCommand = {
  name: "eval-table",
  summary: "the paper's Table 1 from several evaluations: accuracy with intervals and cost",
  help: HELP,
  run,
};
