// `eval`'s session: the defined evaluation run through the engine's core with a progress display,
// each result written as it comes, then the summary and the exit code.
import { formatCost } from "../../engine/cost.ts";
import { analyse } from "../../engine/eval/analysis.ts";
import type { EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import { errorSummary } from "../../engine/eval/errors-text.ts";
import { codeResultText } from "../../engine/eval/report.ts";
import { reportText } from "../../engine/eval/report-text.ts";
import type { EvalOutcome } from "../../engine/eval/runner.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { latestResults } from "../../engine/eval/schema.ts";
import { sessionRun } from "../../engine/eval/session.ts";
import { inShard, shardText } from "../../engine/eval/shard.ts";
import type { Strategy } from "../../engine/eval/strategy.ts";
import { strategyName } from "../../engine/eval/strategy.ts";
import { conductorSample } from "../../engine/eval/training/sample.ts";
import type { ResponseCache } from "../../engine/llm/cache.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import { evalRootAttributes } from "../../engine/otel/eval.ts";
import { cacheLine } from "../cache-store.ts";
import type { Io } from "../command.ts";
import type { CliConfig } from "../config.ts";
import { EXIT } from "../exit-codes.ts";
import type { OtlpExporter } from "../otlp-export.ts";
import { escapeControls } from "../terminal-text.ts";
import type { BackendFor, Defined } from "./eval-definition.ts";
import { retryOf } from "./eval-definition.ts";
import { lineWriter, readResults, writeReport, writeTrainerShapes } from "./eval-files.ts";
import type { EvalOptions, EvalValues } from "./eval-inputs.ts";
import type { EvalProgressDisplay } from "./eval-progress.ts";
import { capSummary, forSummary, summaryJson } from "./eval-summary.ts";
import { runExitCode } from "./run.ts";

/** What one session of the evaluation runs with. */
export interface EvalSession extends Defined {
  values: EvalValues;
  o: EvalOptions;
  io: Io;
  config: CliConfig;
  chosen: Strategy[];
  items: EvalItem[];
  backendFor: BackendFor;
  conductorBackend: ChatBackend;
  display: EvalProgressDisplay;
  otlp: OtlpExporter | null;
}

/** How the session went: the outcome, every result (stored and new) and this session's runs. */
export interface SessionEnd {
  outcome: EvalOutcome;
  all: EvalResult[];
  /** Runs of this session, and how many of them ended because an endpoint was unreachable. */
  session: number;
  unreachable: number;
  seconds: number;
}

/** The stored results that still belong to this evaluation (and this shard), resumed from. */
async function previousResults(s: EvalSession): Promise<EvalResult[]> {
  const { o, io } = s;
  const names = new Set(s.chosen.map(strategyName));
  const ids = new Set(s.items.map((i) => i.id));
  return (await readResults(o.out, io.stderr)).filter(
    (r) => names.has(r.strategy) && ids.has(r.item) && r.repeat < o.repeats && inShard(r, o.shard),
  );
}

/** Runs the session, writing each result (and training sample) as it comes; Ctrl-C cancels it. */
export async function runWithProgress(s: EvalSession): Promise<SessionEnd> {
  const { o, io, config, display, evaluation } = s;
  const previous = await previousResults(s);
  if (o.shard) io.stderr(`Shard ${shardText(o.shard)}: this run's share of the cells only.\n`);
  if (previous.length) io.stderr(`Resuming: ${previous.length} result(s) already in ${o.out}.\n`);
  const trainingFile = s.values["training-data"];
  const writeResult = lineWriter(o.out);
  const writeSample = trainingFile ? lineWriter(trainingFile) : null;
  const all: EvalResult[] = previous.map(forSummary);
  let spent = previous.reduce((sum, r) => sum + r.cost, 0);
  let unreachable = 0;
  let session = 0;
  const started = Date.now();
  const runner = sessionRun(
    {
      evaluation,
      items: s.items,
      backendFor: (w) => s.backendFor(w),
      conductorBackend: s.conductorBackend,
      previous,
      ...(o.shard ? { shard: o.shard } : {}),
      retry: retryOf(config),
      maxCallsPerRun: config.maxCalls,
      prompt: { namedWorkers: config.namedWorkers },
      fallback: { replans: 1, ...(s.fallbackId ? { workerId: s.fallbackId } : {}) },
      onProgress: (p) =>
        display.update({ done: p.done, total: p.total, cost: p.cost, etaMs: p.etaMs }),
      onResult: async (result, record) => {
        await writeResult(result);
        const sample = writeSample && conductorSample(result, record, o.reward);
        if (sample) await writeSample(sample);
        all.push(forSummary(result));
        s.otlp?.add(record, evalRootAttributes(result, evaluation.id));
        session++;
        if (runExitCode(record) === EXIT.unreachable) unreachable++;
        spent += result.cost;
        display.counted(all.length, spent);
        // The line carries what programs and models wrote (a reason, an output): shown escaped.
        display.line(escapeControls(resultLine(result, all.length, runner.total, o.repeats)), true);
      },
    },
    s.scoring,
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
  return { outcome, all, session, unreachable, seconds: (Date.now() - started) / 1000 };
}

/** Tells how the session ended, writes the report and training files, and gives the exit code. */
export async function summarise(
  s: EvalSession,
  end: SessionEnd,
  cache: ResponseCache | undefined,
): Promise<number> {
  const { values, o, io, evaluation } = s;
  const { outcome, seconds } = end;
  if (outcome.status === "cost_cap" && o.maxCost !== null)
    io.stderr(capSummary(o.maxCost, outcome));
  else if (outcome.status === "cancelled")
    io.stderr("Cancelled; run again with the same --out to resume.\n");
  io.stderr(
    `${outcome.done}/${outcome.total} done in ${seconds.toFixed(1)}s, ${formatCost(outcome.cost)} in all.\n`,
  );
  if (cache) io.stderr(`${cacheLine(cache)}\n`);
  const current = latestResults(end.all);
  if (outcome.errors > 0) io.stderr(errorSummary(current));
  // One analysis for both: --json carries the table's rows (k, pass@k, maj@k, seeded intervals).
  const report = analyse(evaluation, current);
  io.stdout(
    values.json
      ? summaryJson(report.strategies, outcome, { out: o.out, seconds })
      : reportText(report),
  );
  if (values.report) await writeReport(values.report, evaluation, current);
  const trainingFile = values["training-data"];
  if (trainingFile) {
    const files = await writeTrainerShapes(trainingFile, evaluation.dataset.name);
    io.stderr(`Training data: ${trainingFile} and ${files.join(", ")}\n`);
  }
  if (end.session > 0 && end.unreachable === end.session) {
    io.stderr(
      "Every run of this session failed because an endpoint could not be reached; check the base URLs and that the servers are up.\n",
    );
    return EXIT.unreachable;
  }
  return outcome.status === "finished" && outcome.errors === 0 ? EXIT.ok : EXIT.failed;
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
