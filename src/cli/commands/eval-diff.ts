import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { diffEvaluations, diffText } from "../../engine/eval/diff.ts";
import { EvaluationSchema, upgradeEvaluation } from "../../engine/eval/schema.ts";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { readResults } from "./eval-files.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";

const HELP = `Two evaluations of the same question set side by side: accuracy changes and flipped questions.

Usage: conductor-studio eval-diff A.jsonl B.jsonl [--json] [--seed S]

Options:
  --json     print the diff as JSON
  --seed S   the bootstrap's seed (default 0)

A and B are eval --out files; the .eval.json beside each is checked for the same dataset. Per
strategy run in both: the accuracy of each and the change B - A with its 95% paired bootstrap
interval and p-value (exact McNemar with one sample each, paired bootstrap with repeats); then
every question whose verdict flipped, with the run ids on both sides.

${exitCodesHelp({
  [EXIT.ok]: "the diff was printed",
  [EXIT.usage]: "a bad option or file, or two different question sets",
})}
Examples:
  conductor-studio eval-diff before.jsonl after.jsonl
  conductor-studio eval-diff before.jsonl after.jsonl --json > diff.json
`;

/** The dataset hash recorded beside a results file, or null when there is no readable sidecar. */
async function datasetHash(file: string): Promise<string | null> {
  const text = await readFile(`${file}.eval.json`, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const parsed = EvaluationSchema.safeParse(upgradeEvaluation(JSON.parse(text)));
    return parsed.success ? parsed.data.dataset.hash : null;
  } catch {
    return null;
  }
}

async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: "boolean", default: false }, seed: { type: "string" } },
  });
  if (positionals.length !== 2) throw new UsageError("eval-diff takes two results files: A B.");
  const [fa, fb] = positionals as [string, string];
  const seed = values.seed === undefined ? 0 : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0)
    throw new UsageError(`--seed must be a non-negative integer, got "${values.seed}".`);
  const [a, b] = await Promise.all([readResults(fa, io.stderr), readResults(fb, io.stderr)]);
  if (a.length === 0) throw new UsageError(`${fa} holds no results.`);
  if (b.length === 0) throw new UsageError(`${fb} holds no results.`);
  const [ha, hb] = await Promise.all([datasetHash(fa), datasetHash(fb)]);
  if (ha && hb && ha !== hb)
    throw new UsageError(
      `${fa} and ${fb} are evaluations of different question sets (${ha} vs ${hb}).`,
    );
  const diff = diffEvaluations(a, b, { seed });
  io.stdout(
    diff && values.json ? `${JSON.stringify(diff, null, 2)}\n` : diffText(diff, { a: fa, b: fb }),
  );
  return 0;
}

/** `conductor-studio eval-diff A B`: two evaluations of the same questions compared. */
export const evalDiffCommand: CliCommand = {
  name: "eval-diff",
  summary: "compare two evaluations of the same question set: accuracy changes and flipped items",
  help: HELP,
  run,
};
