// `conductor-studio eval-merge SHARD... --out FILE`: the results files of an evaluation's shards
// (eval --shard I/N) merged into the file one unsharded run would have written, its definition
// beside it, so the report, --rescore, eval-diff, a resume and the studio read it as any other.
import { basename } from "node:path";
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { mergeResults } from "../../engine/eval/merge.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { readResults } from "./eval-files.ts";
import type { StoredDefinition } from "./eval-resume.ts";
import { definitionChanges, storedDefinition } from "./eval-resume.ts";
import { definitionHash } from "./eval-shard.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { outputProblem } from "../output-paths.ts";

const HELP = `Merge the results files of an evaluation's shards into one, as one unsharded run writes it.

Usage: conductor-studio eval-merge FILE... --out FILE

Options:
  --out FILE   the merged results; FILE.eval.json is written beside it (required)

Each FILE is an eval --out file (usually of eval --shard I/N) with its FILE.eval.json beside it.
All must be the same evaluation (the same definition hash: questions, strategies, repeats, seed,
scorer, pool, Conductor); otherwise nothing is written and the differences are named. A cell
(item, strategy, repeat) found in several files counts once: a verdict over an error, then the
later. Cells no file has are listed; eval --out FILE with the same options runs just those.

${exitCodesHelp({
  [EXIT.ok]: "merged, every cell present",
  [EXIT.failed]: "merged, but some cells are missing (listed)",
  [EXIT.usage]: "a bad option or file, different evaluations, or --out is one of the inputs",
})}
Examples:
  conductor-studio eval-merge shard-0.jsonl shard-1.jsonl shard-2.jsonl --out results.jsonl
  conductor-studio eval-merge shards/*.jsonl --out results.jsonl
`;

/** Why `b` is not the evaluation `a` is, in words; [] when it is the same one. */
function differences(a: StoredDefinition, b: StoredDefinition): string[] {
  if (definitionHash(a) === definitionHash(b)) return [];
  const out = definitionChanges(a, b)
    .map((c) => c.text)
    .filter((t) => !t.startsWith("--shard"));
  const names = (d: StoredDefinition) => d.strategies.map(strategyName).join(", ");
  if (names(a) !== names(b)) out.push(`strategies: ${names(a)} → ${names(b)}`);
  if (a.repeats !== b.repeats) out.push(`--repeats ${a.repeats} → ${b.repeats}`);
  if (out.length === 0)
    out.push(`the definition hash: ${definitionHash(a)} → ${definitionHash(b)}`);
  return out;
}

async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals: files } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: "string" } },
  });
  if (!values.out) throw new UsageError("--out FILE is required.");
  if (files.length === 0) throw new UsageError("eval-merge takes one or more results files.");
  const out = values.out;
  const sidecar = `${out}.eval.json`;
  const unwritable = await outputProblem(
    [out, sidecar],
    files.flatMap((f) => [f, `${f}.eval.json`]),
    "Nothing was merged.",
  );
  if (unwritable) throw new UsageError(unwritable);
  const definitions: StoredDefinition[] = [];
  for (const f of files) {
    const d = await storedDefinition(`${f}.eval.json`);
    if (d === null || d === "bad")
      throw new UsageError(
        `${f}.eval.json, the definition beside ${f}, is ${d === null ? "missing" : "unreadable"}; eval-merge needs it to know the evaluation.`,
      );
    definitions.push(d);
  }
  const first = definitions[0]!;
  for (const [i, d] of definitions.entries()) {
    const diff = differences(first, d);
    if (diff.length)
      throw new UsageError(
        `${files[0]} and ${files[i]} are results of different evaluations; nothing was merged. What differs:\n${diff.map((t) => `  - ${t}`).join("\n")}`,
      );
  }
  const read = await Promise.all(files.map((f) => readResults(f, io.stderr)));
  // The dataset's ids from a shard's record; without one, the items the files name.
  const items = definitions.find((d) => d.shard)?.shard?.items ?? [
    ...new Set(read.flat().map((r) => r.item)),
  ];
  const strategies = first.strategies.map(strategyName);
  const merged = mergeResults(read, items, strategies, first.repeats);
  const { shard: _shard, ...unsharded } = first;
  const evaluation: StoredDefinition = { ...unsharded, id: basename(out) };
  evaluation.definitionHash = definitionHash(evaluation);
  await writeFile(sidecar, `${JSON.stringify(evaluation, null, 2)}\n`);
  await writeFile(out, merged.results.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const shards = definitions.flatMap((d) => (d.shard ? [`${d.shard.index}/${d.shard.count}`] : []));
  io.stderr(
    `Merged ${files.length} file(s)${shards.length ? ` (shards ${shards.join(", ")})` : ""} into ${out}: ` +
      `${merged.results.length} cell(s), ${merged.duplicates} duplicate line(s) dropped.\n`,
  );
  if (merged.missing.length === 0) return EXIT.ok;
  const shown = merged.missing.slice(0, 20).map((c) => `  ${c.item} ${c.strategy} #${c.repeat}`);
  const more = merged.missing.length > 20 ? `\n  … and ${merged.missing.length - 20} more` : "";
  io.stderr(
    `Missing ${merged.missing.length} cell(s) of ${items.length * strategies.length * first.repeats} (no file has them):\n${shown.join("\n")}${more}\n` +
      `Run the same eval command with --out ${out} (no --shard) to run just those.\n`,
  );
  return EXIT.failed;
}

/** `conductor-studio eval-merge FILE... --out FILE`. */
export const evalMergeCommand: CliCommand = {
  name: "eval-merge",
  summary: "merge the results of an evaluation's shards (eval --shard I/N) into one file",
  help: HELP,
  run,
};
