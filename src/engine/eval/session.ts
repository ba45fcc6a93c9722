// The one evaluation core: the definition from plain inputs, the scorer with its judge meter and
// the per-origin limiter built from it, and the ways a session starts, resumes and re-scores. The
// studio's controller and the CLI only map their inputs (a form, a command line) onto it and inject
// what differs between them: backends, the code sandbox, storage (through callbacks).
import type { RetryPolicy } from "../exec/retry.ts";
import type { ChatBackend } from "../llm/types.ts";
import type { Worker } from "../schema/worker.ts";
import type { SandboxSource } from "./code/lazy.ts";
import type { EvalItem } from "./dataset/item-schema.ts";
import { JudgeMeter } from "./judge-meter.ts";
import { OriginLimiter, originOf } from "./limiter.ts";
import type { RescoreOutcome } from "./rescore.ts";
import { rescoreResults } from "./rescore.ts";
import { EvalRun } from "./runner.ts";
import type { EvalRunOptions } from "./runner-types.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import { EvaluationSchema } from "./schema.ts";
import type { ScorerSpec } from "./scorers/registry.ts";
import { createScorer } from "./scorers/registry.ts";
import type { Scorer } from "./scorers/types.ts";

/** What an evaluation is, as plain values: the studio's form and the CLI's options map onto it. */
export interface DefinitionInput {
  id: string;
  name: string;
  createdAt: number;
  dataset: Evaluation["dataset"];
  instruction?: string | undefined;
  benchmark?: Evaluation["benchmark"];
  strategies: Evaluation["strategies"];
  repeats: number;
  seed: number;
  /** The profile is checked here (a bad one throws: inputs name known profiles). */
  scorer: Omit<Evaluation["scorer"], "profile"> & { profile?: string | undefined };
  pool: readonly Worker[];
  conductor: Evaluation["conductor"];
  concurrency: number;
  maxCost: number | null;
}

function withoutHeaders<T extends { headers?: unknown }>(c: T): Omit<T, "headers"> {
  const { headers: _headers, ...rest } = c;
  return rest;
}

/** The stored definition of an evaluation (validated; the pool and Conductor keep no headers). */
export function evaluationDefinition(i: DefinitionInput): Evaluation {
  return EvaluationSchema.parse({
    format: "conductor-studio-eval",
    version: 1,
    id: i.id,
    name: i.name,
    createdAt: i.createdAt,
    ...(i.instruction ? { instruction: i.instruction } : {}),
    ...(i.benchmark ? { benchmark: i.benchmark } : {}),
    dataset: i.dataset,
    strategies: i.strategies,
    repeats: i.repeats,
    seed: i.seed,
    scorer: i.scorer,
    pool: i.pool.map((w) => ({ ...w, headers: undefined })),
    conductor: i.conductor && withoutHeaders(i.conductor),
    concurrency: i.concurrency,
    maxCost: i.maxCost,
  });
}

/** The judge's options as stored: the judge worker's name and, when given, its rubric. */
export function judgeOptions(judge: string | undefined, rubric: string | undefined) {
  return {
    ...(judge ? { judge } : {}),
    ...(rubric?.trim() ? { rubric: rubric.trim() } : {}),
  };
}

/** What the scoring of a session needs from its side (the studio, the CLI). */
export interface ScoringDeps {
  /** The workers a judge can be chosen from (by name; by id for definitions that stored one). */
  workers?: readonly Worker[] | undefined;
  /** The raw backend of the judge worker; the core gates it per origin and meters it. */
  judgeBackend?: ((judge: Worker) => ChatBackend) | undefined;
  codeSandbox?: SandboxSource | undefined;
  /** The judge's retry policy (the runs' policy); the default policy when absent. */
  retry?: Partial<RetryPolicy> | undefined;
}

/** A session's scorer, its judge meter (when a judge is named) and the limiter they share with the runs. */
export interface Scoring {
  scorer: Scorer;
  judgeMeter: JudgeMeter | undefined;
  limiter: OriginLimiter;
}

type Made<T> = ({ ok: true } & T) | { ok: false; message: string };

/** The worker a scorer spec's options name as its judge, if any. */
export function judgeWorkerOf(
  options: Record<string, unknown>,
  workers: readonly Worker[],
): Worker | undefined {
  const { judge, workerId } = options;
  if (typeof judge === "string") return workers.find((w) => w.name === judge);
  // Older CLI definitions named the judge by worker id.
  if (typeof workerId === "string") return workers.find((w) => w.id === workerId);
  return undefined;
}

/**
 * Builds the scorer of `spec`, the judge meter (retried like a worker's calls and metered per item)
 * and the per-origin limiter of `concurrency`, through which the judge's calls share their
 * endpoint's limit with the runs. The one place the judge is metered.
 */
export function sessionScoring(
  spec: Pick<ScorerSpec, "id" | "options"> & { version?: number; profile?: string | undefined },
  concurrency: number,
  deps: ScoringDeps,
): Made<Scoring> {
  const limiter = new OriginLimiter(concurrency);
  const judge = judgeWorkerOf(spec.options, deps.workers ?? []);
  const judgeMeter =
    judge && deps.judgeBackend
      ? new JudgeMeter(
          limiter.wrap(deps.judgeBackend(judge), originOf(judge)),
          judge.price,
          deps.retry,
        )
      : undefined;
  const made = createScorer(spec, {
    judgeBackend: judgeMeter?.backend,
    codeSandbox: deps.codeSandbox,
  });
  return made.ok ? { ok: true, scorer: made.scorer, judgeMeter, limiter } : made;
}

/** The definition's scorer naming the version (and profile) that `scorer` scores with. */
export function withScorerVersion(
  scorer: Pick<ScorerSpec, "id" | "options"> & { profile?: string | undefined },
  made: Scorer,
): Evaluation["scorer"] {
  const { profile: _asked, ...rest } = scorer;
  return {
    ...rest,
    version: made.version,
    ...(made.profile !== undefined ? { profile: made.profile } : {}),
  };
}

/** What a session's run takes besides its definition and scoring (see EvalRunOptions). */
export type SessionRunOptions = Omit<EvalRunOptions, "scorer" | "limiter" | "judgeMeter">;

/**
 * The run of one session of an evaluation: a new one (no `previous`) or a resumed one (its stored
 * results and cut-short runs). Results and progress are reported through the callbacks.
 */
export function sessionRun(o: SessionRunOptions, scoring: Scoring): EvalRun {
  return new EvalRun({
    ...o,
    scorer: scoring.scorer,
    limiter: scoring.limiter,
    judgeMeter: scoring.judgeMeter,
  });
}

export interface RescoreSessionOptions {
  evaluation: Evaluation;
  results: readonly EvalResult[];
  items?: readonly EvalItem[] | undefined;
  /** The scorer to score with (its newest version unless the spec names one). */
  spec: Pick<ScorerSpec, "id" | "options"> & { profile?: string | undefined };
  deps: ScoringDeps;
  signal: AbortSignal;
  onlyUnscored?: boolean;
  /** Called once the scorer is built, before anything is scored. */
  onScorer?: (scorer: Scorer) => void;
}

/**
 * Scores the stored answers again (a judge calls only its judge, through the evaluation's
 * concurrency), and returns the outcome with the definition naming the scorer now used.
 */
export async function rescoreSession(
  o: RescoreSessionOptions,
): Promise<Made<{ outcome: RescoreOutcome; evaluation: Evaluation; scorer: Scorer }>> {
  const made = sessionScoring(o.spec, o.evaluation.concurrency, o.deps);
  if (!made.ok) return made;
  o.onScorer?.(made.scorer);
  const outcome = await rescoreResults({
    evaluation: o.evaluation,
    results: o.results,
    items: o.items,
    scorer: made.scorer,
    signal: o.signal,
    judgeMeter: made.judgeMeter,
    onlyUnscored: o.onlyUnscored ?? false,
  });
  const evaluation = { ...o.evaluation, scorer: withScorerVersion(o.spec, made.scorer) };
  return { ok: true, outcome, evaluation, scorer: made.scorer };
}
