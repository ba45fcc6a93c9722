import { copyFile, readFile, rename, writeFile } from "node:fs/promises";
import { analyse } from "../../engine/eval/analysis.ts";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import type { EvalItem } from "../../engine/eval/dataset/item-schema.ts";
import { DEFAULT_COLUMNS } from "../../engine/eval/dataset/item-schema.ts";
import { parseColumnsOption } from "../../engine/eval/dataset/parse.ts";
import { errorSummary } from "../../engine/eval/errors-text.ts";
import { reportText } from "../../engine/eval/report-text.ts";
import { scorerLabel } from "../../engine/eval/report.ts";
import type { Evaluation } from "../../engine/eval/schema.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { EvaluationSchema, upgradeEvaluation } from "../../engine/eval/schema.ts";
import type { ScoringDeps } from "../../engine/eval/session.ts";
import { judgeOptions, rescoreSession } from "../../engine/eval/session.ts";
import { resolveConfig } from "../config.ts";
import { backendFor } from "../kit/backend.ts";
import type { Io as EvalIo } from "../command.ts";
import { loadDataset, readResults, writeReport } from "./eval-files.ts";

export interface RescoreArgs {
  out?: string;
  scorer?: string;
  dataset?: string;
  columns?: string;
  config?: string;
  judge?: string;
  report?: string;
  rubric?: string;
  profile?: string;
  "skip-bad-rows"?: boolean;
  "only-unscored"?: boolean;
}

/** The evaluation's definition beside its results (`--out` + `.eval.json`), or why not. */
async function readSidecar(out: string): Promise<Evaluation | string> {
  const text = await readFile(`${out}.eval.json`, "utf8").catch(() => null);
  if (text === null) return `Cannot read ${out}.eval.json, the evaluation beside ${out}.`;
  try {
    const parsed = EvaluationSchema.safeParse(upgradeEvaluation(JSON.parse(text)));
    return parsed.success ? parsed.data : `${out}.eval.json is not an evaluation.`;
  } catch {
    return `${out}.eval.json is not JSON.`;
  }
}

/** The judge's workers and backend from --config and --judge, or why not. */
async function judgeDepsOf(a: RescoreArgs, io: EvalIo): Promise<ScoringDeps | string> {
  if (!a.config || !a.judge) return "Re-scoring with the judge needs --config and --judge NAME.";
  const text = await readFile(a.config, "utf8").catch(() => null);
  if (text === null) return `Cannot read the config file ${a.config}.`;
  const resolved = resolveConfig(text, io.env);
  if (!resolved.ok) return resolved.message;
  if (!resolved.pool.some((w) => w.name === a.judge))
    return `No worker named "${a.judge}" for --judge.`;
  const { config, keys } = resolved;
  return {
    workers: resolved.pool,
    judgeBackend: (judge) => backendFor({ config, keys }, judge.id, judge),
    retry: { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) },
  };
}

/**
 * `eval --rescore --out results.jsonl [--scorer ID]`: scores the stored answers again without
 * calling a model (a judge calls only its judge), keeps the old file as `results.jsonl.bak`, and
 * prints the report. Exit 0, 1 when errored items remain (run the evaluation again), 2 for bad input.
 */
export async function rescoreFile(
  a: RescoreArgs,
  io: EvalIo,
  codeSandbox: () => Promise<Sandbox>,
): Promise<number> {
  const usage = (m: string) => (io.stderr(`${m}\n`), 2);
  if (!a.out) return usage("--rescore needs --out, the results file to score again.");
  const before = await readSidecar(a.out);
  if (typeof before === "string") return usage(before);
  const results = await readResults(a.out, io.stderr);
  if (results.length === 0) return usage(`${a.out} holds no results to score again.`);
  const scorerId = a.scorer ?? before.scorer.id;
  const kind = scorerKind(scorerId);
  let items: EvalItem[] | undefined;
  if (a.dataset) {
    const mapping = parseColumnsOption(a.columns ?? "", before.dataset.mapping ?? DEFAULT_COLUMNS);
    if (!mapping.ok) return usage(mapping.message);
    const data = await loadDataset(
      a.dataset,
      mapping.mapping,
      a["skip-bad-rows"] ?? false,
      io.stderr,
    );
    if (!data.ok) return usage(data.message);
    if (data.value.hash !== before.dataset.hash)
      return usage(
        `${a.dataset} is not the question set of ${a.out} (hash ${before.dataset.hash}).`,
      );
    items = data.value.items;
  } else if (kind.readsItems)
    return usage(`Re-scoring with ${scorerId} needs --dataset (the questions and their tests).`);
  const judgeDeps = kind.needsJudge ? await judgeDepsOf(a, io) : undefined;
  if (typeof judgeDeps === "string") return usage(judgeDeps);
  const kept = scorerId === before.scorer.id ? before.scorer.options : {};
  const options = { ...kept, ...judgeOptions(a.judge, a.rubric) };
  // the newest version, under the profile asked for, else the one the evaluation had
  const profile = a.profile ?? (scorerId === before.scorer.id ? before.scorer.profile : undefined);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  let made;
  try {
    made = await rescoreSession({
      evaluation: before,
      results,
      items,
      spec: { id: scorerId, options, profile },
      deps: { ...judgeDeps, codeSandbox },
      signal: controller.signal,
      onlyUnscored: a["only-unscored"] ?? false,
    });
  } finally {
    process.off("SIGINT", onSignal);
  }
  if (!made.ok) return usage(made.message);
  const { outcome, evaluation } = made;
  if (outcome.cancelled) {
    io.stderr(`Cancelled; ${a.out} is unchanged.\n`);
    return 1;
  }
  // The old file stays beside the new one; the new one replaces it in one rename.
  await copyFile(a.out, `${a.out}.bak`);
  const tmp = `${a.out}.rescore.tmp`;
  await writeFile(tmp, outcome.results.map((r) => `${JSON.stringify(r)}\n`).join(""));
  await rename(tmp, a.out);
  await writeFile(`${a.out}.eval.json`, `${JSON.stringify(evaluation, null, 2)}\n`);
  io.stderr(
    `Re-scored ${outcome.results.length - outcome.errors} result(s) with ${scorerLabel(made.scorer)}: ${outcome.changed} verdict(s) changed. The previous file is ${a.out}.bak.\n`,
  );
  if (outcome.errors > 0) io.stderr(errorSummary(outcome.results));
  io.stdout(reportText(analyse(evaluation, outcome.results)));
  if (a.report) await writeReport(a.report, evaluation, outcome.results);
  return outcome.errors > 0 ? 1 : 0;
}
