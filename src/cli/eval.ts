import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { formatCost } from "../engine/cost.ts";
import { parseColumnsOption } from "../engine/eval/dataset/parse.ts";
import { DEFAULT_COLUMNS } from "../engine/eval/dataset/schema.ts";
import { analyse } from "../engine/eval/analysis.ts";
import { reportText } from "../engine/eval/report-text.ts";
import { EvalRun } from "../engine/eval/runner.ts";
import type { Evaluation } from "../engine/eval/schema.ts";
import { EvaluationSchema, latestResults, upgradeEvaluation } from "../engine/eval/schema.ts";
import { errorSummary } from "../engine/eval/errors-text.ts";
import { createScorer, defaultScorerId } from "../engine/eval/scorers/registry.ts";
import { parseStrategyList, strategyName } from "../engine/eval/strategy.ts";
import { parseRewardOption } from "../engine/eval/training/reward.ts";
import { conductorSample } from "../engine/eval/training/sample.ts";
import { createOpenAIBackend } from "../engine/llm/openai.ts";
import { importRun } from "../engine/run/export.ts";
import { JudgeMeter } from "../engine/eval/judge-meter.ts";
import { OriginLimiter, originOf } from "../engine/eval/limiter.ts";
import type { Worker } from "../engine/schema/worker.ts";
import type { Sandbox } from "../engine/eval/code/pool.ts";
import { codeResultText } from "../engine/eval/report.ts";
import { resolveConfig } from "./config.ts";
import { rescoreFile } from "./eval-rescore.ts";
import {
  lineWriter,
  loadDataset,
  readResults,
  writeReport,
  writeTrainerShapes,
} from "./eval-files.ts";

export const EVAL_HELP = `  conductor-studio eval --config pool.json --dataset questions.jsonl --out results.jsonl
  conductor-studio eval --rescore --out results.jsonl [--scorer ID] [--dataset FILE]
      [--config pool.json --judge NAME] [--rubric TEXT] [--only-unscored] [--report FILE]
      Scores the stored answers of results.jsonl again (another scorer, or the current version)
      without calling a model; the old file is kept as results.jsonl.bak. Every result records
      the scorer and version that scored it, and the report says when they are mixed.
      [--strategies conductor,single,moa] [--repeats K] [--concurrency N] [--max-cost USD]
      [--columns question=q,answer=a] [--scorer mc|math|exact|contains|regex|judge|code]
      [--judge NAME] [--seed S] [--skip-bad-rows] [--training-data FILE] [--workflow FILE]
      [--report FILE.json|FILE.csv] [--reward paper|format_bonus[:B]] [--rubric TEXT]
      Run a question set (JSONL, JSON or CSV) through each strategy: conductor, single (every
      worker alone) or single:<name>, moa, chain, best-of-n, workflow (--workflow: an exported
      workflow applied to every question). Each line of --out is one (item,
      strategy, repeat); running again with the same --out skips finished items. Progress on
      stderr, the summary table on stdout. --training-data writes Conductor samples (JSON lines)
      and, beside them, .grpo.jsonl, .sft.jsonl, .preference.jsonl and .verl.parquet; the
      reward is the paper's (0 unparseable plan, 0.5 parsed and wrong, 1 parsed and right) or,
      with --reward format_bonus[:B], correctness plus B (default 0.1) for a parsed plan.
      Errored and unscored samples are left out.
      The report gives questions and samples apart, 95% bootstrap intervals (seeded with --seed),
      pass@k and maj@k with --repeats, per category (--columns category=subject), and every
      strategy against the Conductor (exact McNemar; paired bootstrap with repeats); --report
      writes it as JSON (with every result) or CSV.
      --scorer judge --judge NAME grades with that worker (--rubric replaces the default rubric);
      its calls are retried like a worker's and count in cost, tokens, calls and --max-cost; a
      judge that fails leaves the item unscored with the reason (re-score with --only-unscored).
      --scorer code (the default when items have a tests column) runs each Python answer
      against the item's tests in Pyodide (a worker thread): pass@1, tests passed per item.
      An item whose calls failed (after retries) is an error, never a wrong answer: listed apart,
      left out of accuracy and training data, and run again when resumed.
      Exit 0 when every item finished, 1 when stopped (spending cap, Ctrl-C) or when any item
      errored, 2 for bad input.
`;

export interface EvalIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

function num(
  v: string | undefined,
  name: string,
  min: number,
  fallback: number | null,
): number | string | null {
  if (v === undefined) return fallback;
  const n = Number(v);
  return Number.isFinite(n) && n >= min ? n : `--${name} must be a number >= ${min}, got "${v}".`;
}

/** The code scorer's Node sandbox, started on the first answer scored; disposed when the command ends. */
function codeSandboxHolder(io: EvalIo) {
  let made: Promise<Sandbox> | null = null;
  return {
    get: () =>
      (made ??= import("../engine/eval/code/node.ts").then(({ createNodeSandbox }) => {
        const sandbox = createNodeSandbox();
        io.stderr("Starting the Python sandbox (Pyodide)…\n");
        return sandbox;
      })),
    /** Terminates the interpreters' worker threads, so the process can exit. */
    dispose: async () => (await made?.catch(() => null))?.dispose(),
  };
}

/** `conductor-studio eval`: returns the exit code. */
export async function evalCommand(args: string[], io: EvalIo): Promise<number> {
  const code = codeSandboxHolder(io);
  try {
    return await evalWith(args, io, code.get);
  } finally {
    await code.dispose();
  }
}

async function evalWith(
  args: string[],
  io: EvalIo,
  codeSandbox: () => Promise<Sandbox>,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: "string" },
      dataset: { type: "string" },
      out: { type: "string" },
      strategies: { type: "string", default: "conductor,single,moa" },
      repeats: { type: "string" },
      concurrency: { type: "string" },
      "max-cost": { type: "string" },
      columns: { type: "string" },
      scorer: { type: "string" },
      judge: { type: "string" },
      seed: { type: "string" },
      "skip-bad-rows": { type: "boolean", default: false },
      "training-data": { type: "string" },
      workflow: { type: "string" },
      report: { type: "string" },
      reward: { type: "string", default: "paper" },
      rescore: { type: "boolean", default: false },
      "only-unscored": { type: "boolean", default: false },
      rubric: { type: "string" },
    },
  });
  if (values.rescore) return rescoreFile(values, io, codeSandbox);
  const usage = (m: string) => (io.stderr(`${m}\n`), 2);
  if (!values.config || !values.dataset || !values.out)
    return usage(
      "--config, --dataset and --out are required.\nRun conductor-studio --help for usage.",
    );
  const repeats = num(values.repeats, "repeats", 1, 1);
  const concurrency = num(values.concurrency, "concurrency", 1, 4);
  const maxCost = num(values["max-cost"], "max-cost", 0, null);
  const seed = num(values.seed, "seed", 0, 0);
  if (typeof repeats === "string") return usage(repeats);
  if (typeof concurrency === "string") return usage(concurrency);
  if (typeof maxCost === "string") return usage(maxCost);
  if (typeof seed === "string") return usage(seed);
  if (repeats === null || concurrency === null || seed === null) return usage("Bad option.");
  const reward = parseRewardOption(values.reward);
  if (typeof reward === "string") return usage(reward);
  const configText = await readFile(values.config, "utf8").catch(() => null);
  if (configText === null) return usage(`Cannot read the config file ${values.config}.`);
  const resolved = resolveConfig(configText, io.env);
  if (!resolved.ok) return usage(resolved.message);
  const { config, conductor, pool, keys } = resolved;
  const mapping = parseColumnsOption(values.columns ?? "", DEFAULT_COLUMNS);
  if (!mapping.ok) return usage(mapping.message);
  const data = await loadDataset(
    values.dataset,
    mapping.mapping,
    values["skip-bad-rows"],
    io.stderr,
  );
  if (!data.ok) return usage(data.message);
  const names0 = values.strategies.split(",").map((x) => x.trim());
  const strategies = parseStrategyList(names0.filter((n) => n !== "workflow").join(","), pool);
  if (!strategies.ok && !(names0.length === 1 && names0[0] === "workflow"))
    return usage(strategies.message);
  const chosen = strategies.ok ? strategies.strategies : [];
  if (names0.includes("workflow")) {
    // The "this workflow" strategy: a workflow exported from the studio, applied to every question.
    if (!values.workflow)
      return usage("The workflow strategy needs --workflow FILE (an exported workflow).");
    const text = await readFile(values.workflow, "utf8").catch(() => null);
    const imported = text === null ? null : importRun(text);
    if (!imported?.ok)
      return usage(`Cannot use ${values.workflow}: ${imported?.message ?? "cannot read it"}`);
    // The workflow's workers are the config's workers of the same name (ids are the studio's).
    const source = imported.record;
    const steps = (source.rounds[0]?.steps ?? []).map((st) => {
      const name = source.pool.find((w) => w.id === st.worker)?.name ?? st.workerName;
      const worker = pool.find((w) => w.name === name) ?? pool.find((w) => w.id === st.worker);
      return { worker: worker?.id ?? "", name, subtask: st.subtask, access: st.access };
    });
    if (steps.length === 0) return usage(`${values.workflow} has no steps.`);
    const lost = steps.find((st) => st.worker === "");
    if (lost)
      return usage(
        `${values.workflow} uses a worker named "${lost.name}", which the config's workers lack; add it or rename one.`,
      );
    chosen.push({
      kind: "workflow",
      steps: steps.map(({ worker, subtask, access }) => ({ worker, subtask, access })),
    });
  }
  const scorerId = values.scorer ?? defaultScorerId(data.value.items);
  const backendFor = (w: Pick<Worker, "id" | "baseURL" | "model" | "headers">) =>
    createOpenAIBackend({
      baseURL: w.baseURL,
      model: w.model,
      apiKey: keys.get(w.id),
      headers: w.headers,
      timeoutMs: config.timeoutMs,
    });
  const judge = values.judge === undefined ? undefined : pool.find((w) => w.name === values.judge);
  if (values.judge !== undefined && !judge)
    return usage(`No worker named "${values.judge}" for --judge.`);
  // The judge's calls share its endpoint's concurrency limit with the runs.
  const limiter = new OriginLimiter(concurrency);
  // The judge's calls are retried like a worker's and metered per item (cost, tokens, calls, cap).
  const judgeMeter = judge
    ? new JudgeMeter(limiter.wrap(backendFor(judge), originOf(judge)), judge.price, {
        ...config.retry,
        ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
      })
    : undefined;
  const rubric = values.rubric?.trim() ? { rubric: values.rubric.trim() } : {};
  const made = createScorer(
    { id: scorerId, options: judge ? { workerId: judge.id, ...rubric } : {} },
    { judgeBackend: judgeMeter?.backend, codeSandbox },
  );
  if (!made.ok) return usage(made.message);

  const evaluation: Evaluation = EvaluationSchema.parse({
    format: "conductor-studio-eval",
    version: 1,
    id: basename(values.out),
    name: basename(values.dataset),
    createdAt: Date.now(),
    dataset: {
      name: basename(values.dataset),
      hash: data.value.hash,
      size: data.value.items.length,
      mapping: mapping.mapping,
    },
    strategies: chosen,
    repeats,
    seed,
    scorer: {
      id: scorerId,
      options: judge ? { judge: judge.name, ...rubric } : {},
      version: made.scorer.version,
    },
    pool: pool.map((w) => ({ ...w, headers: undefined })),
    conductor: { ...conductor, headers: undefined },
    concurrency,
    maxCost,
  });
  // The definition sits beside --out; a resumed run must be the same evaluation.
  const sidecar = `${values.out}.eval.json`;
  const before = await readFile(sidecar, "utf8").then(
    (t) => EvaluationSchema.safeParse(upgradeEvaluation(JSON.parse(t))),
    () => null,
  );
  if (before?.success && before.data.dataset.hash !== evaluation.dataset.hash)
    return usage(
      `${values.out} holds results of another dataset (hash ${before.data.dataset.hash}); use a new --out.`,
    );
  if (before?.success && before.data.seed !== seed)
    return usage(
      `${values.out} was run with --seed ${before.data.seed}; resume with the same seed.`,
    );
  await writeFile(sidecar, `${JSON.stringify(evaluation, null, 2)}\n`);

  const names = new Set(chosen.map(strategyName));
  const ids = new Set(data.value.items.map((i) => i.id));
  const previous = (await readResults(values.out, io.stderr)).filter(
    (r) => names.has(r.strategy) && ids.has(r.item) && r.repeat < repeats,
  );
  if (previous.length)
    io.stderr(`Resuming: ${previous.length} result(s) already in ${values.out}.\n`);
  const writeResult = lineWriter(values.out);
  const trainingFile = values["training-data"];
  const writeSample = trainingFile ? lineWriter(trainingFile) : null;
  const all = [...previous];
  const started = Date.now();
  const run = new EvalRun({
    evaluation,
    items: data.value.items,
    scorer: made.scorer,
    backendFor: (w) => backendFor(w),
    conductorBackend: backendFor({
      id: "conductor",
      baseURL: conductor.baseURL,
      model: conductor.model,
      headers: conductor.headers,
    }),
    previous,
    limiter,
    judgeMeter,
    retry: { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) },
    maxCallsPerRun: config.maxCalls,
    prompt: { namedWorkers: config.namedWorkers },
    onResult: async (result, record) => {
      await writeResult(result);
      const sample = writeSample && conductorSample(result, record, reward);
      if (sample) await writeSample(sample);
      all.push(result);
      const verdict = result.error
        ? `error (${result.error.code}: ${result.error.message})`
        : result.correct === null
          ? "unscored"
          : result.correct
            ? "right"
            : "wrong";
      const tests = result.code ? `; ${codeResultText(result.code)}` : "";
      io.stderr(
        `[${all.length}/${run.total}] ${result.item} ${result.strategy}${repeats > 1 ? ` #${result.repeat + 1}` : ""}: ${verdict} (${(result.latencyMs / 1000).toFixed(1)}s, ${formatCost(result.cost)})${tests}\n`,
      );
    },
  });
  const onSignal = () => run.cancel();
  process.once("SIGINT", onSignal);
  let outcome;
  try {
    outcome = await run.run();
  } finally {
    process.off("SIGINT", onSignal);
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (outcome.status === "cost_cap")
    io.stderr(
      `Stopped at the spending cap ($${maxCost}): ${formatCost(outcome.cost)} spent; ${outcome.total - outcome.done} item(s) not run.\n`,
    );
  else if (outcome.status === "cancelled")
    io.stderr("Cancelled; run again with the same --out to resume.\n");
  io.stderr(
    `${outcome.done}/${outcome.total} done in ${secs}s, ${formatCost(outcome.cost)} in all.\n`,
  );
  if (outcome.errors > 0) io.stderr(errorSummary(latestResults(all)));
  const current = latestResults(all);
  io.stdout(reportText(analyse(evaluation, current)));
  if (values.report) await writeReport(values.report, evaluation, current);
  if (trainingFile) {
    const files = await writeTrainerShapes(trainingFile, evaluation.dataset.name);
    io.stderr(`Training data: ${trainingFile} and ${files.join(", ")}\n`);
  }
  return outcome.status === "finished" && outcome.errors === 0 ? 0 : 1;
}
