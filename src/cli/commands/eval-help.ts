// `conductor-studio eval`: its options and its help, in one place so that they agree.
import { CONFIG_HELP } from "../config.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { otlpOptionTable } from "../otlp-export.ts";
import { optionsHelp } from "../options.ts";
import { CONDUCTOR_GGUF_OPTION } from "../gguf/conductor.ts";
import { COLUMN_NAMES } from "../../engine/eval/columns.ts";
import { scorerIds } from "../../engine/eval/scorers/registry.ts";

/** Strategy names `--strategies` takes (`single:<worker>` besides). */
export const STRATEGY_NAMES = ["conductor", "single", "moa", "chain", "best-of-n", "workflow"];

export const EVAL_SHAPE = {
  name: "eval",
  usage: "--config FILE (--dataset FILE | --preset NAME) --out FILE [options]",
  options: {
    config: {
      type: "string",
      arg: "FILE",
      description: "the Conductor and the workers (JSON, below; required)",
    },
    "conductor-gguf": CONDUCTOR_GGUF_OPTION,
    dataset: {
      type: "string",
      arg: "FILE",
      description:
        "the questions: JSONL, JSON or CSV; with --preset, the preset's rows in the Hub's shape (JSONL, JSON, CSV or parquet)",
    },
    preset: {
      type: "string",
      arg: "NAME",
      description:
        "a benchmark preset (--list-presets): its columns, scorer and answer format; rows from the Hub unless --dataset",
    },
    "list-presets": {
      type: "boolean",
      description: "print the benchmark presets with their datasets, scorers and references",
    },
    "hf-token-env": {
      type: "string",
      arg: "VAR",
      description:
        "a variable holding a Hugging Face token, for gated presets (sent to the Hub only)",
    },
    release: {
      type: "string",
      arg: "CONFIG",
      description: "with --preset livecodebench: the release to read (default release_v6)",
    },
    since: {
      type: "string",
      arg: "DAY",
      description: "with --preset livecodebench: only problems from contests on or after DAY",
    },
    until: {
      type: "string",
      arg: "DAY",
      description: "with --preset livecodebench: only problems from contests on or before DAY",
    },
    out: {
      type: "string",
      arg: "FILE",
      description:
        "results, one JSON line per (item, strategy, repeat); resumed when run again (required)",
    },
    strategies: {
      type: "string",
      arg: "LIST",
      description: "comma-separated, from the list below (default conductor,single,moa)",
    },
    repeats: {
      type: "string",
      arg: "K",
      description: "samples per question and strategy (default 1)",
    },
    concurrency: {
      type: "string",
      arg: "N",
      description: "calls at once per endpoint origin (default 4; halved on a 429)",
    },
    "max-cost": {
      type: "string",
      arg: "USD",
      description: "spending cap in dollars, earlier sessions included (see below)",
    },
    columns: {
      type: "string",
      arg: "MAP",
      description: "field=column pairs, e.g. question=problem,answer=solution (see below)",
    },
    scorer: {
      type: "string",
      arg: "ID",
      description: `${scorerIds().join("|")} (default: chosen from the items)`,
    },
    profile: {
      type: "string",
      arg: "NAME",
      description:
        "the math scorer's grader profile: default, math-verify, qwen-math, minerva or strict",
    },
    judge: {
      type: "string",
      arg: "NAME",
      description: "the worker that judges answers for --scorer judge",
    },
    seed: {
      type: "string",
      arg: "S",
      description: "seed that shuffles multiple-choice options (default 0)",
    },
    "skip-bad-rows": {
      type: "boolean",
      description: "skip rows that cannot be read instead of stopping (they are listed)",
    },
    shard: {
      type: "string",
      arg: "I/N",
      description:
        "run only shard I (0 to N-1) of N; default $CONDUCTOR_SHARD/$CONDUCTOR_SHARDS (see below)",
    },
    "training-data": {
      type: "string",
      arg: "FILE",
      description: "write Conductor samples there and trainer files beside it (needs conductor)",
    },
    workflow: {
      type: "string",
      arg: "FILE",
      description: "an exported workflow, for the workflow strategy",
    },
    cache: {
      type: "string",
      arg: "DIR",
      description:
        "answer repeated model requests from DIR at no cost (README: the response cache)",
    },
    "cache-mode": {
      type: "string",
      arg: "MODE",
      description: "read-write (default), read-only or refresh, for --cache",
    },
    ...otlpOptionTable("each item's run", "traces"),
    "max-time-limit": {
      type: "string",
      arg: "S",
      description: "raise the 60 s cap on a code item's timeLimitMs per test",
    },
    "unconfined-code": {
      type: "boolean",
      description:
        "score code answers where the sandbox cannot confine them (no bubblewrap, macOS, Windows), accepting that risk",
    },
    fallback: {
      type: "string",
      arg: "worker:NAME",
      description: "when the Conductor cannot plan (asked twice), that worker answers alone",
    },
    rescore: {
      type: "boolean",
      description: "score the stored answers in --out again, calling no model (see below)",
    },
    "only-unscored": {
      type: "boolean",
      description: "with --rescore: only the items left unscored (a judge that failed)",
    },
    report: {
      type: "string",
      arg: "FILE",
      description: "write the report as JSON (with every result) or CSV, by the file's extension",
    },
    reward: {
      type: "string",
      arg: "SCHEME",
      description: "training reward: paper (default: 0 / 0.5 / 1) or format_bonus[:B]",
    },
    rubric: {
      type: "string",
      arg: "TEXT",
      description: "the LLM judge's rubric, replacing the default one",
    },
    new: {
      type: "boolean",
      description: "start over: move the earlier results in --out aside instead of resuming",
    },
    json: {
      type: "boolean",
      description: "print the summary as JSON on stdout instead of the table",
    },
    strict: {
      type: "boolean",
      description: "refuse a config with unknown keys instead of warning",
    },
  },
} as const;

/** One line per field: the column names it is found under (engine/eval/columns.ts). */
function columnNamesHelp(): string {
  return Object.entries(COLUMN_NAMES)
    .map(([field, names]) => {
      const fallback = field === "question" ? " (else the first column)" : "";
      return `  ${field.padEnd(10)} ${names.join(", ")}${fallback}`;
    })
    .join("\n");
}

export const EVAL_HELP = `Run a question set through several strategies, score every answer, and compare accuracy (with its
standard error) against tokens, cost and latency.

${optionsHelp(EVAL_SHAPE)}
Strategies (--strategies):
  conductor        the Conductor plans each question (the config's maxSteps and rounds apply)
  single           every worker alone, one step each; single:<name> for one worker
  moa              Mixture-of-Agents: every worker attempts, the first aggregates
  chain            attempt, check, final: three steps, each seeing all before it
  best-of-n        three attempts by one worker, a judge worker picks and restates the best
  workflow         an exported workflow (--workflow FILE) applied to every question; its workers
                   are the config's workers of the same name
  Every strategy's last step is told the answer format the scorer reads.

Questions (--dataset, --columns): JSONL, JSON (an array) or CSV, with a byte-order mark, CRLF and
multi-line CSV cells accepted. Each field's column is found by name, case ignored, the first name
below first, as the studio finds it; --columns FIELD=COLUMN,... overrides:
${columnNamesHelp()}
Only question is required; a bad row is listed by line and stops the run unless --skip-bad-rows.

Scorer (--scorer), when not given: code when items have tests, mc when they have choices, math when
every answer is a number (or kind is math), contains otherwise. mc reads an "Answer: X" line
(strict and lenient verdicts, both kept); math the last \\boxed{}, <answer> or "Answer:" line, with
fractions, units and numeric tolerance; judge asks --judge NAME and leaves an item unscored, never
wrong, when the judge fails; code runs each Python answer against the item's tests in Pyodide (a
separate, permission-restricted Node process; pass@1 and tests passed per item).

Files: each line of --out is one result {"item", "strategy", "repeat", "correct" (true, false, or
null when unscored), "score", "answer", "expected", "tokens", "cost", "latencyMs", "runId", ...};
OUT.eval.json beside it holds the evaluation's definition (dataset hash, strategies, repeats,
seed, scorer and version, pool without keys, Conductor). Running the same command again resumes:
finished items are skipped. If the definition changed (strategies, pool, prices, Conductor
settings, scorer, seed, questions), eval refuses, names what changed, and --new starts over.
--training-data FILE writes one Conductor sample per line (prompt, completion, lists, reward) and,
beside it, FILE.grpo.jsonl (TRL GRPOTrainer), .sft.jsonl (SFTTrainer), .preference.jsonl
(DPOTrainer) and .verl.parquet (verl); it needs the conductor strategy. Every output path is
checked before the first call.

Spending cap (--max-cost): before an item starts, its cost is estimated and reserved, from the
best data there is: the mean cost of its strategy's finished items, else its workers' measured
cost per call (and the Conductor's per plan), else a prior from the prices (a typical prompt and
output per step, about 3 steps for the Conductor). An item that would pass the cap, counting the
reservations of the items in flight, is skipped while cheaper strategies go on; a strategy with
nothing measured yet runs one item at a time. The summary lists, per strategy, what was skipped,
the estimate and what it rested on. Earlier sessions' spend counts.

Report (stdout; --report FILE.json|FILE.csv to keep it): questions and samples apart, 95% bootstrap
intervals (seeded with --seed) beside accuracy and cost, pass@k and maj@k with --repeats, per
category (--columns category=subject), and every strategy against the Conductor on the same
questions (exact McNemar with one sample each, a paired bootstrap with repeats), with a sentence
saying whether the difference is real. An item whose calls failed (after retries) is an error,
never a wrong answer: listed apart, left out of accuracy and training data, run again on resume,
and eval exits 1.

Re-scoring: eval --rescore --out FILE [--scorer ID] [--dataset FILE] [--only-unscored] scores the
stored answers again (another scorer, or the current version) without calling a model (a judge
calls only the judge: --config and --judge NAME); the old file is kept as FILE.bak. Each result
records the scorer, version and profile that scored it; the report says when they are mixed. A
resumed evaluation keeps the scorer version it started with; --rescore (with --profile to change
the grader) moves every stored verdict to the newest version, and eval-diff of the old and new
files lists the items the new version flips.

Training rewards (--training-data): the paper's by default (0 unparseable plan, 0.5 parsed and
wrong, 1 parsed and right); --reward format_bonus[:B] gives correctness plus B (0.1) for a parsed
plan, the rule of reward --format-bonus B. Errored and unscored samples are left out.

Shards (--shard I/N): an evaluation split over N machines, each running the same command with its
own I (0 to N-1; CONDUCTOR_SHARD=I and CONDUCTOR_SHARDS=N do the same, for array jobs). Each
(item, strategy, repeat) belongs to one shard by a hash of its identity, the same on every machine
whatever the question file's order; OUT.eval.json records the shard and the definition's hash.
conductor-studio eval-merge SHARD... --out FILE then writes what one unsharded run would have.

Fallback: a plan that does not parse is asked for once more; --fallback worker:NAME then lets that
worker answer alone, recorded on the round and counted per strategy in the summary.

Progress on stderr: on a terminal a bar with items done, calls in flight, dollars spent and time
left; otherwise one line per finished item with the same numbers. The summary table (or --json) on
stdout.

${CONFIG_HELP}
${exitCodesHelp({
  [EXIT.ok]: "every item finished",
  [EXIT.failed]: "stopped before the end (the spending cap, Ctrl-C); run again to resume",
  [EXIT.usage]:
    "usage error or bad input (config, dataset, workflow, a changed definition, an output path that cannot be written); nothing was called",
})}
Examples:
  conductor-studio eval --config pool.json --dataset questions.jsonl --out results.jsonl
  conductor-studio eval --config pool.json --dataset questions.jsonl --strategies conductor,single,moa --repeats 1 --concurrency 4 --max-cost 2.50 --columns question=problem,answer=solution --training-data conductor.jsonl --out results.jsonl
  conductor-studio eval --config pool.json --dataset code.jsonl --scorer code --strategies single --out code-results.jsonl
  conductor-studio eval --config pool.json --dataset questions.jsonl --strategies conductor --conductor-gguf conductor-q4_k_m.gguf --out results.jsonl
  conductor-studio eval --list-presets
  conductor-studio eval --config pool.json --preset livecodebench --dataset lcb-rows.jsonl --since 2025-01-01 --out lcb.jsonl
  conductor-studio eval --config pool.json --preset gpqa-diamond --hf-token-env HF_TOKEN --out gpqa.jsonl
  conductor-studio eval --config pool.json --dataset questions.jsonl --out results.jsonl --json > summary.json
`;
