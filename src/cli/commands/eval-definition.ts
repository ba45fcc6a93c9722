// `eval`'s definition and scoring, built through the engine's one evaluation core
// (engine/eval/session.ts) from the checked inputs: the fallback and judge workers, the scorer (pinned
// to the stored version when resuming) and the definition stored beside --out.
import { basename } from "node:path";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { oldScorerNote } from "../../engine/eval/code/scorer.ts";
import type { Scoring } from "../../engine/eval/session.ts";
import {
  evaluationDefinition,
  sessionScoring,
  withScorerVersion,
} from "../../engine/eval/session.ts";
import type { Strategy } from "../../engine/eval/strategy.ts";
import type { RetryPolicy } from "../../engine/exec/retry.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { CliConfig, ResolvedConfig } from "../config.ts";
import { fallbackWorkerId } from "../kit/engine.ts";
import { didYouMean } from "../suggest.ts";
import type { Loaded } from "./eval-files.ts";
import type { EvalOptions, EvalValues, Questions } from "./eval-inputs.ts";
import type { StoredDefinition } from "./eval-resume.ts";
import { sidecarOf, storedDefinition } from "./eval-resume.ts";
import { definitionHash } from "./eval-shard.ts";

/** A worker's backend as the evaluation's runs and judge call it (cached, counted). */
export type BackendFor = (
  w: Pick<Worker, "id" | "baseURL" | "model" | "headers" | "price">,
) => ChatBackend;

/** What the evaluation is made from: the checked inputs and the backends. */
export interface DefinitionInputs {
  values: EvalValues;
  o: EvalOptions;
  resolved: ResolvedConfig;
  questions: Questions;
  chosen: Strategy[];
  scorerId: string;
  backendFor: BackendFor;
  codeSandbox: () => Promise<Sandbox>;
}

/** The evaluation to run: its stored definition, its scoring and the --fallback worker's id. */
export interface Defined {
  evaluation: StoredDefinition;
  scoring: Scoring;
  fallbackId: string | undefined;
}

/** The runs' retry policy, with the config's per-call timeout. */
export function retryOf(config: CliConfig): Partial<RetryPolicy> {
  return { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) };
}

/** --fallback (worker:NAME) and --judge (a worker's name), each checked against the pool. */
function chooseWorkers(
  values: EvalValues,
  resolved: ResolvedConfig,
): Loaded<{ fallbackId: string | undefined; judge: Worker | undefined }> {
  if (values.fallback !== undefined && !values.fallback.startsWith("worker:"))
    return { ok: false, message: `--fallback must be worker:NAME, got "${values.fallback}".` };
  const fallback = fallbackWorkerId(resolved, values.fallback?.slice("worker:".length));
  if (!fallback.ok) return fallback;
  const { pool } = resolved;
  const judge = values.judge === undefined ? undefined : pool.find((w) => w.name === values.judge);
  if (values.judge !== undefined && !judge)
    return {
      ok: false,
      message: `No worker named "${values.judge}" for --judge${didYouMean(
        values.judge,
        pool.map((w) => w.name),
      )}.`,
    };
  return { ok: true, value: { fallbackId: fallback.id, judge } };
}

/**
 * The evaluation's definition and scoring. A resumed evaluation keeps the scorer version (and
 * profile) its stored verdicts came from; a code scorer too old to trust is not pinned, and the
 * resume is refused later (eval-resume.ts) with the reason.
 */
export async function defineEvaluation(d: DefinitionInputs): Promise<Loaded<Defined>> {
  const { values, o, resolved } = d;
  const workers = chooseWorkers(values, resolved);
  if (!workers.ok) return workers;
  const { judge, fallbackId } = workers.value;
  const rubric = values.rubric?.trim() ? { rubric: values.rubric.trim() } : {};
  const stored = values.new ? null : await storedDefinition(sidecarOf(o.out));
  const pinned =
    stored && stored !== "bad" && stored.scorer.id === d.scorerId && !oldScorerNote(stored.scorer)
      ? stored.scorer
      : null;
  const profile = values.profile ?? pinned?.profile;
  // The judge is stored by name, as the studio stores it; the core meters it and gates its calls
  // with the runs' per-origin limiter.
  const scorerOptions = { ...(judge ? { judge: judge.name, ...rubric } : {}), ...o.codeCap };
  const scoring = sessionScoring(
    {
      id: d.scorerId,
      options: scorerOptions,
      ...(pinned ? { version: pinned.version } : {}),
      ...(profile !== undefined ? { profile } : {}),
    },
    o.concurrency,
    {
      workers: resolved.pool,
      judgeBackend: d.backendFor,
      codeSandbox: d.codeSandbox,
      retry: retryOf(resolved.config),
    },
  );
  if (!scoring.ok) return scoring;
  const scorer = withScorerVersion({ id: d.scorerId, options: scorerOptions }, scoring.scorer);
  return { ok: true, value: { evaluation: storedEvaluation(d, scorer), scoring, fallbackId } };
}

/**
 * The definition as stored beside --out, with its hash; a shard's file also records which shard it
 * is and the dataset's ids, for eval-merge.
 */
function storedEvaluation(
  d: DefinitionInputs,
  scorer: StoredDefinition["scorer"],
): StoredDefinition {
  const { o, questions, resolved } = d;
  const { preset } = o;
  const { config } = resolved;
  const defined: StoredDefinition = {
    ...evaluationDefinition({
      id: basename(o.out),
      name: questions.name,
      createdAt: Date.now(),
      instruction: preset?.instruction,
      benchmark: preset ? { id: preset.id, name: preset.name } : undefined,
      dataset: {
        name: questions.name,
        hash: questions.hash,
        size: questions.items.length,
        mapping: questions.mapping,
      },
      strategies: d.chosen,
      repeats: o.repeats,
      seed: o.seed,
      scorer,
      pool: resolved.pool,
      conductor: resolved.conductor,
      concurrency: o.concurrency,
      maxCost: o.maxCost,
    }),
    runSettings: { namedWorkers: config.namedWorkers, maxCalls: config.maxCalls ?? null },
  };
  return {
    ...defined,
    definitionHash: definitionHash(defined),
    ...(o.shard ? { shard: { ...o.shard, items: questions.items.map((i) => i.id) } } : {}),
  };
}
