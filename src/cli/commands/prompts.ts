// `conductor-studio prompts`: GRPO training prompts with randomised pools (paper section 4.4), in
// the shapes TRL and verl read, and what training on them would cost.
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { formatCost } from "../../engine/cost.ts";
import { columnsNote, columnsOf } from "../../engine/eval/columns.ts";
import { parseColumnsOption } from "../../engine/eval/dataset/parse.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import { defaultScorerId, scorerIds } from "../../engine/eval/scorers/registry.ts";
import type { CliCommand, Io } from "../command.ts";
import { UsageError } from "../command.ts";
import { resolveConfig } from "../config.ts";
import { loadDataset } from "./eval-files.ts";
import { outputProblem } from "../output-paths.ts";
import type { TrainingEstimate, TrainingShape } from "./prompts-rows.ts";
import {
  estimateTraining,
  PAPER_SHAPE,
  parsePoolSize,
  promptRows,
  trlRow,
  verlPromptParquet,
} from "./prompts-rows.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";

export const PROMPTS_HELP = `Write GRPO training prompts with randomised pools (paper section 4.4), and estimate the cost.

Usage: conductor-studio prompts --config FILE --dataset FILE --out FILE [options]

Options:
  --config FILE             the Conductor and the workers (JSON; required)
  --dataset FILE            the questions: JSONL, JSON or CSV (required)
  --out FILE                TRL's conversational prompt set (JSON lines), .verl.parquet beside it
  --pool-size MIN-MAX       workers per prompt (default 3-7, at most the pool)
  --seed N                  seed of the sampled pools (default 0)
  --scorer ID               the scorer recorded with each row (default: chosen from the items)
  --columns MAP             field=column pairs, as for eval
  --skip-bad-rows           skip rows that cannot be read instead of stopping
  --estimate                print the worker calls and money per step and for the run (--out optional)
  --questions-per-step N    for --estimate (default 4, the paper's)
  --rollouts N              for --estimate (default 64)
  --steps N                 for --estimate (default 200)
  --calls-per-plan X        for --estimate (default 2.5)

Per question, the exact Conductor prompt for a random subset of the pool (a size drawn from
--pool-size, workers in a random order), recorded in the row: TRL columns prompt, id, question,
ground_truth, scorer, pool, tests, data_source; verl's extra_info holds question, reference,
scorer and pool. The reward service (conductor-studio reward) takes these rows back.

${exitCodesHelp({
  [EXIT.ok]: "the prompts were written (or estimated)",
  [EXIT.usage]: "a bad option, config or dataset; nothing was written",
})}
Examples:
  conductor-studio prompts --config pool.json --dataset train.jsonl --out prompts.jsonl --estimate
  conductor-studio prompts --config pool.json --dataset train.jsonl --pool-size 3-7 --seed 1 --out prompts.jsonl
`;

/** verl's parquet, written beside the TRL file. */
const verlPath = (out: string) => `${out.replace(/\.jsonl?$/, "")}.verl.parquet`;

function positive(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${name} must be a positive number, got "${v}".`);
  return n;
}

function money(v: number | null): string {
  return v === null ? "unknown (no worker has a price)" : formatCost(v);
}

/** The --estimate report. */
export function estimateText(e: TrainingEstimate, shape: TrainingShape, questions: number): string {
  const lines = [
    `Training estimate (before the response cache; ${questions} questions in the set):`,
    `  per step: ${shape.questionsPerStep} questions x ${shape.rollouts} rollouts = ${e.plansPerStep} plans, ` +
      `${e.callsPerStep.toLocaleString("en-US")} worker calls (${shape.callsPerPlan} per plan), ${money(e.costPerStep)}`,
    `  whole run: ${shape.steps} steps, ${e.callsTotal.toLocaleString("en-US")} worker calls, ${money(e.costTotal)}`,
    `  per call: ${money(e.costPerCall)} on average over the sampled pools`,
  ];
  if (shape.questionsPerStep * shape.steps > questions)
    lines.push(
      `  (${shape.questionsPerStep * shape.steps} question draws: about ${((shape.questionsPerStep * shape.steps) / questions).toFixed(1)} epochs of this set)`,
    );
  if (e.unpriced.length) lines.push(`  no price (counted as free): ${e.unpriced.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

async function promptsRun(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: "string" },
      dataset: { type: "string" },
      out: { type: "string" },
      "pool-size": { type: "string", default: "3-7" },
      seed: { type: "string", default: "0" },
      scorer: { type: "string" },
      columns: { type: "string" },
      "skip-bad-rows": { type: "boolean", default: false },
      estimate: { type: "boolean", default: false },
      "questions-per-step": { type: "string" },
      rollouts: { type: "string" },
      steps: { type: "string" },
      "calls-per-plan": { type: "string" },
    },
  });
  if (!values.config || !values.dataset)
    throw new UsageError("--config and --dataset are required.");
  if (!values.out && !values.estimate)
    throw new UsageError("--out FILE is required (or --estimate alone).");
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0)
    throw new UsageError(`--seed must be a non-negative integer, got "${values.seed}".`);
  const shape: TrainingShape = {
    questionsPerStep: positive(
      values["questions-per-step"],
      "questions-per-step",
      PAPER_SHAPE.questionsPerStep,
    ),
    rollouts: positive(values.rollouts, "rollouts", PAPER_SHAPE.rollouts),
    steps: positive(values.steps, "steps", PAPER_SHAPE.steps),
    callsPerPlan: positive(values["calls-per-plan"], "calls-per-plan", PAPER_SHAPE.callsPerPlan),
  };
  // The help's own example once wrote the prompts over the dataset: an output is never an input.
  const outputs = values.out ? [values.out, verlPath(values.out)] : [];
  const refused = await outputProblem(
    outputs,
    [values.config, values.dataset],
    "Nothing was written.",
  );
  if (refused) throw new UsageError(refused);
  const configText = await readFile(values.config, "utf8").catch(() => null);
  if (configText === null) throw new UsageError(`Cannot read the config file ${values.config}.`);
  const resolved = resolveConfig(configText, io.env, "training");
  if (!resolved.ok) throw new UsageError(resolved.message);
  const { config, pool } = resolved;
  const size = parsePoolSize(values["pool-size"], pool.length);
  if (typeof size === "string") throw new UsageError(size);
  // Columns are found by name as eval and the studio find them; --columns overrides.
  const columns = values.columns ?? "";
  const checked = parseColumnsOption(columns, DEFAULT_COLUMNS);
  if (!checked.ok) throw new UsageError(checked.message);
  const data = await loadDataset(
    values.dataset,
    (seen) => columnsOf(seen, columns),
    values["skip-bad-rows"],
    io.stderr,
  );
  if (!data.ok) throw new UsageError(data.message);
  const used = data.value.mapping;
  const note = columnsNote(used);
  if (note) io.stderr(`${note}\n`);
  const scorer = values.scorer ?? defaultScorerId(data.value.items);
  if (!scorerIds().includes(scorer))
    throw new UsageError(`Unknown scorer "${scorer}" (known: ${scorerIds().join(", ")}).`);
  const rows = promptRows(data.value.items, {
    pool,
    size,
    seed,
    scorer,
    maxSteps: config.maxSteps,
    namedWorkers: config.namedWorkers,
  });
  if (values.out) {
    const source = basename(values.dataset).replace(/\.[^.]+$/, "");
    const trl = rows.map((r) => JSON.stringify(trlRow(r, source))).join("\n");
    await writeFile(values.out, `${trl}\n`);
    const verl = verlPath(values.out);
    await writeFile(verl, new Uint8Array(await verlPromptParquet(rows, source)));
    const sizes = rows.map((r) => r.pool.length);
    io.stderr(
      `${rows.length} prompts (pools of ${Math.min(...sizes)}-${Math.max(...sizes)} workers, seed ${seed}, scorer ${scorer}): ${values.out} (TRL) and ${verl} (verl)\n`,
    );
  }
  if (values.estimate)
    io.stdout(estimateText(estimateTraining(rows, pool, shape), shape, rows.length));
  return 0;
}

export const promptsCommand: CliCommand = {
  name: "prompts",
  summary:
    "write GRPO training prompts with randomised pools (TRL JSONL, verl parquet) and estimate the cost",
  help: PROMPTS_HELP,
  run: promptsRun,
};
