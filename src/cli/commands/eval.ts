// `conductor-studio eval`: a question set through several strategies, scored, summarised.
import { writeFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { formatCost } from "../../engine/cost.ts";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { columnsNote, columnsOf } from "../../engine/eval/columns.ts";
import { parseColumnsOption } from "../../engine/eval/dataset/parse.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/schema.ts";
import { oldScorerNote } from "../../engine/eval/code/scorer.ts";
import { analyse } from "../../engine/eval/analysis.ts";
import { errorSummary } from "../../engine/eval/errors-text.ts";
import { codeResultText } from "../../engine/eval/report.ts";
import { reportText } from "../../engine/eval/report-text.ts";
import { parseRewardOption } from "../../engine/eval/training/reward.ts";
import {
  evaluationDefinition,
  sessionRun,
  sessionScoring,
  withScorerVersion,
} from "../../engine/eval/session.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import { defaultScorerId, scorerIds } from "../../engine/eval/scorers/registry.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import { conductorSample } from "../../engine/eval/training/sample.ts";
import { withCache } from "../../engine/llm/cache.ts";
import { evalRootAttributes } from "../../engine/otel/eval.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { type CliCommand, type Io, UsageError } from "../command.ts";
import { cacheLine, openResponseCache } from "../cache-store.ts";
import { loadConfig } from "../config.ts";
import {
  lineWriter,
  loadDataset,
  readResults,
  trainerShapeFiles,
  writeReport,
  writeTrainerShapes,
} from "./eval-files.ts";
import { EVAL_HELP, EVAL_SHAPE } from "./eval-help.ts";
import { rescoreFile } from "./eval-rescore.ts";
import { EvalProgressDisplay, countingCalls } from "./eval-progress.ts";
import type { StoredDefinition } from "./eval-resume.ts";
import { definitionChanges, mismatchMessage, moveAside, storedDefinition } from "./eval-resume.ts";
import { chooseStrategies } from "./eval-strategies.ts";
import { definitionHash, shardOption } from "./eval-shard.ts";
import { inShard, shardText } from "../../engine/eval/shard.ts";
import { capSummary, forSummary, summaryJson } from "./eval-summary.ts";
import { EXIT } from "../exit-codes.ts";
import { intOption, parseOptions } from "../options.ts";
import { outputProblem } from "../output-paths.ts";
import { otlpExporter } from "../otlp-export.ts";
import { ggufConductor, ggufResolved } from "../gguf/conductor.ts";
import { runExitCode } from "./run.ts";
import { backendFor as kitBackendFor } from "../kit/backend.ts";
import { fallbackWorkerId } from "../kit/engine.ts";
import { cacheOption } from "../serve/options.ts";
import { didYouMean } from "../suggest.ts";
import { escapeControls } from "../terminal-text.ts";
import {
  dateWindow,
  hubBases,
  loadPresetDataset,
  presetById,
  presetList,
  tokenFrom,
} from "./eval-preset.ts";

/** The code scorer's Node sandbox, started on the first answer scored; disposed when the command ends. */
function codeSandboxHolder(io: Io, unconfined: boolean) {
  let made: Promise<Sandbox> | null = null;
  return {
    get: () =>
      (made ??= import("../../node/sandbox/process.ts").then((m) => {
        const sandbox = m.createNodeSandbox({ unconfined });
        io.stderr(`Starting the Python sandbox (${m.nodeSandboxName(unconfined)})…\n`);
        return sandbox;
      })),
    /** Ends the sandbox's interpreter processes, so the command can exit. */
    dispose: async () => (await made?.catch(() => null))?.dispose(),
  };
}

async function run(args: string[], io: Io): Promise<number> {
  // Read here (parseOptions checks it again): the sandbox is made before the options are parsed.
  const code = codeSandboxHolder(io, args.includes("--unconfined-code"));
  try {
    return await evalWith(args, io, code.get);
  } finally {
    await code.dispose();
  }
}

async function evalWith(
  args: string[],
  io: Io,
  codeSandbox: () => Promise<Sandbox>,
): Promise<number> {
  const { values } = parseOptions(EVAL_SHAPE, args);
  if (values.rescore) return rescoreFile(values, io, codeSandbox);
  const usage = (m: string) => (io.stderr(`${m}\n`), EXIT.usage);
  // Nothing is queued before the first result, so the early returns below leave nothing unsent.
  const otlp = otlpExporter(values, io);
  if (values["list-presets"]) {
    io.stdout(`${presetList()}\n`);
    return EXIT.ok;
  }
  const preset = values.preset === undefined ? null : presetById(values.preset);
  if (!values.config || !(values.dataset || preset) || !values.out)
    throw new UsageError("--config, --out and --dataset (or --preset) are required.");
  if (!preset && (values.release || values.since || values.until || values["hf-token-env"]))
    throw new UsageError("--release, --since, --until and --hf-token-env go with --preset.");
  const window = dateWindow(values.since, values.until);
  const hfToken = tokenFrom(values["hf-token-env"], io.env);
  const out = values.out;
  const shard = shardOption(values.shard, io.env);
  const repeats = intOption(values.repeats, "repeats", { min: 1, fallback: 1 });
  const concurrency = intOption(values.concurrency, "concurrency", { min: 1, fallback: 4 });
  const seed = intOption(values.seed, "seed", { min: 0, fallback: 0 });
  const maxTime = values["max-time-limit"] === undefined ? null : Number(values["max-time-limit"]);
  if (maxTime !== null && !(Number.isFinite(maxTime) && maxTime >= 1))
    throw new UsageError(
      `--max-time-limit must be a number of seconds of at least 1, got "${values["max-time-limit"]}".`,
    );
  const reward = parseRewardOption(values.reward ?? "paper");
  if (typeof reward === "string") throw new UsageError(reward);
  const codeCap = maxTime === null ? {} : { maxTimeLimitMs: Math.round(maxTime * 1000) };
  const maxCost = values["max-cost"] === undefined ? null : Number(values["max-cost"]);
  if (maxCost !== null && !(Number.isFinite(maxCost) && maxCost > 0))
    throw new UsageError(
      `--max-cost must be a number of dollars above 0, got "${values["max-cost"]}".`,
    );
  // A bad --cache-mode is refused before anything is read; the cache opens below.
  cacheOption(values.cache, values["cache-mode"]);
  const loaded = await loadConfig(values.config, io.env, {
    strict: values.strict ?? false,
    warn: (line) => io.stderr(`${line}\n`),
  });
  if (!loaded.ok) return usage(loaded.message);
  // A local GGUF Conductor is recorded in the definition now and loaded only once the run starts.
  const ggufFile = values["conductor-gguf"];
  const resolved = ggufFile ? ggufResolved(ggufFile, loaded.resolved) : loaded.resolved;
  const { config, conductor, pool } = resolved;
  // A bad --columns is refused before the file is read. The file's columns are found by name as
  // the studio finds them (engine/eval/columns.ts), and --columns overrides what it names.
  const columns = values.columns ?? "";
  const checked = parseColumnsOption(columns, DEFAULT_COLUMNS);
  if (!checked.ok) return usage(checked.message);
  const data = preset
    ? await loadPresetDataset(preset, {
        ...(values.dataset ? { file: values.dataset } : {}),
        ...(values.release ? { config: values.release } : {}),
        ...(hfToken ? { token: hfToken } : {}),
        window,
        skipBad: values["skip-bad-rows"] ?? false,
        warn: io.stderr,
        hub: hubBases(io.env),
      })
    : await loadDataset(
        values.dataset ?? "",
        (seen) => columnsOf(seen, columns),
        values["skip-bad-rows"] ?? false,
        io.stderr,
      );
  if (!data.ok) return usage(data.message);
  const datasetName =
    preset && "name" in data.value ? data.value.name : basename(values.dataset ?? "");
  const mapping = data.value.mapping;
  // A column read under another name than its field's is said, so a guess never passes unseen.
  const note = columnsNote(mapping);
  if (note) io.stderr(`${note}\n`);
  const chosen = await chooseStrategies(
    values.strategies ?? "conductor,single,moa",
    pool,
    config,
    values.workflow,
  );
  if (ggufFile && !chosen.some((s) => s.kind === "conductor"))
    throw new UsageError(
      `--conductor-gguf plans with a local Conductor, but --strategies has no conductor (${chosen.map(strategyName).join(", ")}). Add conductor, or drop --conductor-gguf.`,
    );
  const trainingFile = values["training-data"];
  if (trainingFile && !chosen.some((s) => s.kind === "conductor"))
    throw new UsageError(
      `--training-data writes the Conductor's samples, but --strategies has no conductor (${chosen.map(strategyName).join(", ")}). Add conductor, or drop --training-data.`,
    );
  if (values.scorer !== undefined && !scorerIds().includes(values.scorer))
    throw new UsageError(
      `Unknown scorer "${values.scorer}"${didYouMean(values.scorer, scorerIds())}; the scorers are ${scorerIds().join(", ")}.`,
    );
  const scorerId = values.scorer ?? preset?.scorer ?? defaultScorerId(data.value.items);
  if (scorerId === "code") {
    const { nodeSandboxRefusal } = await import("../../node/sandbox/process.ts");
    const refusal = nodeSandboxRefusal(values["unconfined-code"] ?? false);
    if (refusal) return usage(refusal);
  }
  const display = new EvalProgressDisplay(io.stderr, {
    tty: io.stderrIsTTY ?? false,
    columns: io.columns ?? 80,
  });
  // Opened here, where the finally below closes it (a Redis connection). Repeats stay independent
  // samples; a re-run of the same evaluation is answered from the cache.
  const cache = await openResponseCache(values.cache, values["cache-mode"], "distinct", (line) =>
    io.stderr(`${line}\n`),
  );
  let gguf: Awaited<ReturnType<typeof ggufConductor>> | undefined;
  try {
    const backendFor = (w: Pick<Worker, "id" | "baseURL" | "model" | "headers" | "price">) => {
      const backend = kitBackendFor(resolved, w.id, w);
      return countingCalls(cache ? withCache(backend, cache, w) : backend, display.counter);
    };
    if (values.fallback !== undefined && !values.fallback.startsWith("worker:"))
      return usage(`--fallback must be worker:NAME, got "${values.fallback}".`);
    const fallback = fallbackWorkerId(resolved, values.fallback?.slice("worker:".length));
    if (!fallback.ok) return usage(fallback.message);
    const judge =
      values.judge === undefined ? undefined : pool.find((w) => w.name === values.judge);
    if (values.judge !== undefined && !judge)
      return usage(
        `No worker named "${values.judge}" for --judge${didYouMean(
          values.judge,
          pool.map((w) => w.name),
        )}.`,
      );
    const rubric = values.rubric?.trim() ? { rubric: values.rubric.trim() } : {};
    // A resumed evaluation keeps the scorer version (and profile) its stored verdicts came from.
    const stored = values.new ? null : await storedDefinition(`${out}.eval.json`);
    // A code scorer too old to trust is not pinned: the resume is refused below with the reason.
    const pinned =
      stored && stored !== "bad" && stored.scorer.id === scorerId && !oldScorerNote(stored.scorer)
        ? stored.scorer
        : null;
    const profile = values.profile ?? pinned?.profile;
    // The judge is stored by name, as the studio stores it; the core meters it and gates its calls
    // with the runs' per-origin limiter.
    const scorerOptions = { ...(judge ? { judge: judge.name, ...rubric } : {}), ...codeCap };
    const made = sessionScoring(
      {
        id: scorerId,
        options: scorerOptions,
        ...(pinned ? { version: pinned.version } : {}),
        ...(profile !== undefined ? { profile } : {}),
      },
      concurrency,
      {
        workers: pool,
        judgeBackend: backendFor,
        codeSandbox,
        retry: { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) },
      },
    );
    if (!made.ok) return usage(made.message);

    const defined: StoredDefinition = {
      ...evaluationDefinition({
        id: basename(out),
        name: String(datasetName),
        createdAt: Date.now(),
        instruction: preset?.instruction,
        benchmark: preset ? { id: preset.id, name: preset.name } : undefined,
        dataset: {
          name: String(datasetName),
          hash: data.value.hash,
          size: data.value.items.length,
          mapping,
        },
        strategies: chosen,
        repeats,
        seed,
        scorer: withScorerVersion({ id: scorerId, options: scorerOptions }, made.scorer),
        pool,
        conductor,
        concurrency,
        maxCost,
      }),
      runSettings: { namedWorkers: config.namedWorkers, maxCalls: config.maxCalls ?? null },
    };
    // A shard's file records which shard it is and the dataset's ids, for eval-merge.
    const evaluation: StoredDefinition = {
      ...defined,
      definitionHash: definitionHash(defined),
      ...(shard ? { shard: { ...shard, items: data.value.items.map((i) => i.id) } } : {}),
    };
    // The definition sits beside --out; a resumed run must be the same evaluation.
    const sidecar = `${out}.eval.json`;
    const trainingFiles = trainingFile ? [trainingFile, ...trainerShapeFiles(trainingFile)] : [];
    const inputs = [values.config, values.dataset, values.workflow].filter((f) => f !== undefined);
    const outputs = [out, sidecar, ...trainingFiles];
    if (trainingFile && resolve(trainingFile) === resolve(out))
      return usage("--training-data and --out must be different files.");
    const unwritable = await outputProblem(outputs, inputs);
    if (unwritable) return usage(unwritable);
    const before = await storedDefinition(sidecar);
    if (values.new) {
      const moved = await moveAside([out, sidecar, ...trainingFiles]);
      if (moved.length)
        io.stderr(`Starting over (--new); the earlier files are now ${moved.join(", ")}.\n`);
    } else if (before === "bad") {
      return usage(
        `${sidecar} cannot be read, so ${out} cannot be resumed safely. Run again with --new to start over (the earlier results are kept, renamed), or choose another --out.`,
      );
    } else if (before) {
      const stale = oldScorerNote(before.scorer);
      if (stale)
        return usage(
          `${out}: ${stale} Run again with --new, or use a new --out, to score with the new one.`,
        );
      const changes = definitionChanges(before, evaluation);
      if (changes.length) return usage(mismatchMessage(out, changes));
    }
    // Loaded after every usage check, so a refused command never waits on llama.cpp; the finally
    // below frees it.
    gguf = ggufFile ? await ggufConductor(ggufFile, loaded.resolved) : undefined;
    await writeFile(sidecar, `${JSON.stringify(evaluation, null, 2)}\n`);

    const names = new Set(chosen.map(strategyName));
    const ids = new Set(data.value.items.map((i) => i.id));
    const previous = (await readResults(out, io.stderr)).filter(
      (r) => names.has(r.strategy) && ids.has(r.item) && r.repeat < repeats && inShard(r, shard),
    );
    if (shard) io.stderr(`Shard ${shardText(shard)}: this run's share of the cells only.\n`);
    if (previous.length) io.stderr(`Resuming: ${previous.length} result(s) already in ${out}.\n`);
    const writeResult = lineWriter(out);
    const writeSample = trainingFile ? lineWriter(trainingFile) : null;
    const all: EvalResult[] = previous.map(forSummary);
    let spent = previous.reduce((sum, r) => sum + r.cost, 0);
    let unreachable = 0;
    let session = 0;
    const started = Date.now();
    const runner = sessionRun(
      {
        evaluation,
        items: data.value.items,
        backendFor: (w) => backendFor(w),
        conductorBackend:
          gguf?.backend ??
          backendFor({
            id: "conductor",
            baseURL: conductor.baseURL,
            model: conductor.model,
            headers: conductor.headers,
            price: conductor.price,
          }),
        previous,
        ...(shard ? { shard } : {}),
        retry: { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) },
        maxCallsPerRun: config.maxCalls,
        prompt: { namedWorkers: config.namedWorkers },
        fallback: { replans: 1, ...(fallback.id ? { workerId: fallback.id } : {}) },
        onProgress: (p) =>
          display.update({ done: p.done, total: p.total, cost: p.cost, etaMs: p.etaMs }),
        onResult: async (result, record) => {
          await writeResult(result);
          const sample = writeSample && conductorSample(result, record, reward);
          if (sample) await writeSample(sample);
          all.push(forSummary(result));
          otlp?.add(record, evalRootAttributes(result, evaluation.id));
          session++;
          if (runExitCode(record) === EXIT.unreachable) unreachable++;
          spent += result.cost;
          display.counted(all.length, spent);
          // The line carries what programs and models wrote (a reason, an output): shown escaped.
          display.line(escapeControls(resultLine(result, all.length, runner.total, repeats)), true);
        },
      },
      made,
    );
    const onSignal = () => runner.cancel();
    process.once("SIGINT", onSignal);
    let outcome;
    try {
      outcome = await runner.run();
    } finally {
      process.off("SIGINT", onSignal);
      display.stop();
    }
    const secs = (Date.now() - started) / 1000;
    if (outcome.status === "cost_cap" && maxCost !== null) io.stderr(capSummary(maxCost, outcome));
    else if (outcome.status === "cancelled")
      io.stderr("Cancelled; run again with the same --out to resume.\n");
    io.stderr(
      `${outcome.done}/${outcome.total} done in ${secs.toFixed(1)}s, ${formatCost(outcome.cost)} in all.\n`,
    );
    if (cache) io.stderr(`${cacheLine(cache)}\n`);
    const current = latestResults(all);
    if (outcome.errors > 0) io.stderr(errorSummary(current));
    // One analysis for both: --json carries the table's rows (k, pass@k, maj@k, seeded intervals).
    const report = analyse(evaluation, current);
    io.stdout(
      values.json
        ? summaryJson(report.strategies, outcome, { out, seconds: secs })
        : reportText(report),
    );
    if (values.report) await writeReport(values.report, evaluation, current);
    if (trainingFile) {
      const files = await writeTrainerShapes(trainingFile, evaluation.dataset.name);
      io.stderr(`Training data: ${trainingFile} and ${files.join(", ")}\n`);
    }
    if (session > 0 && unreachable === session) {
      io.stderr(
        "Every run of this session failed because an endpoint could not be reached; check the base URLs and that the servers are up.\n",
      );
      return EXIT.unreachable;
    }
    return outcome.status === "finished" && outcome.errors === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    display.stop();
    await gguf?.backend.unload();
    await otlp?.close();
    await cache?.store.close?.();
  }
}

function resultLine(result: EvalResult, done: number, total: number, repeats: number): string {
  const verdict = result.error
    ? `error (${result.error.code}: ${result.error.message})`
    : result.status === "failed"
      ? `run failed${result.reason ? ` (${result.reason})` : ""}`
      : result.correct === null
        ? "unscored"
        : result.correct
          ? "right"
          : "wrong";
  const tests = result.code ? `; ${codeResultText(result.code)}` : "";
  const repeat = repeats > 1 ? ` #${result.repeat + 1}` : "";
  return `[${done}/${total}] ${result.item} ${result.strategy}${repeat}: ${verdict} (${(result.latencyMs / 1000).toFixed(1)}s, ${formatCost(result.cost)})${tests}`;
}

export const evalCommand: CliCommand = {
  name: "eval",
  summary: "run a question set through several strategies, score the answers, compare them",
  help: EVAL_HELP,
  run,
};
