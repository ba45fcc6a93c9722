// The reward of one sampled Conductor completion: parse it as the studio parses a plan, run the
// workflow on the pool through the engine's one runner (same messages, retries and limits as
// `run` and `serve`), score the answer with the evaluation graders. Platform-neutral: no node:*.
import { EndReason, ErrorCode } from "../../engine/errors.ts";
import { shownIds, stepsByWorkerId } from "../../engine/conductor/shown-ids.ts";
import { parseConductorOutput } from "../../engine/conductor/parse.ts";
import { buildConductorMessages } from "../../engine/conductor/prompt.ts";
import type { Scorer } from "../../engine/eval/scorers/types.ts";
import { runConductor } from "../../engine/exec/simple-runs.ts";
import type { RetryPolicy } from "../../engine/exec/retry.ts";
import { newRunId } from "../../engine/exec/simple-runs.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import { applyEvent, emptyRecord } from "../../engine/run/record.ts";
import type { RewardScheme } from "../../engine/eval/training/reward.ts";
import { rewardOf } from "../../engine/eval/training/reward.ts";
import { trainerPrompt } from "../../engine/eval/training/shapes.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { ConductorConfig, Pool, Worker } from "../../engine/schema/worker.ts";
import type { RewardItem, RewardResult } from "./request.ts";

export interface RewardEngine {
  pool: Pool;
  conductor: ConductorConfig;
  conductorBackend: ChatBackend;
  backendFor: (w: Worker) => ChatBackend;
  maxSteps: number;
  maxCalls?: number;
  retry?: Partial<RetryPolicy>;
  namedWorkers: boolean;
  /** The scorer of an id, or why there is none (an unknown id, a missing sandbox). */
  scorer: (id: string) => Scorer | string;
  defaultScorer: string;
  now?: () => number;
}

/** The item's pool in prompt order, or the names the service's config lacks. */
export function itemPool(pool: Pool, names: string[] | undefined): Pool | { missing: string[] } {
  if (!names) return pool;
  const picked = names.map((n) => pool.find((w) => w.name === n));
  const missing = names.filter((_n, i) => picked[i] === undefined);
  return missing.length ? { missing } : (picked as Pool);
}

/** A multiple-choice reference given as an option's text becomes that option's letter. */
function referenceOf(item: RewardItem): string | undefined {
  const ref = item.reference ?? undefined;
  if (ref === undefined || !item.choices) return ref;
  const at = item.choices.findIndex((c) => c.trim() === ref.trim());
  return at >= 0 && at < 26 ? String.fromCharCode(65 + at) : ref;
}

function base(item: RewardItem): RewardResult {
  return {
    id: item.id,
    reward: null,
    correct: null,
    format_ok: false,
    answer: null,
    error: null,
    parse_error: null,
    run_id: null,
    cost: 0,
    calls: 0,
    cached_calls: 0,
    extracted: null,
  };
}

/** Why a run that did not finish gave no answer: a failed worker call, or a cancellation. */
function runFailure(record: RunRecord): RewardResult["error"] {
  const failed = record.rounds.flatMap((r) => r.steps).find((s) => s.status === "failed");
  if (record.status === "cancelled" || record.endReason === EndReason.cancelled)
    return { code: "cancelled", message: "The run was cancelled before it finished." };
  if (record.endReason === EndReason.budget || failed?.error?.code === ErrorCode.budget)
    return { code: "budget", message: record.message ?? "The run reached the config's maxCalls." };
  const why = failed?.error
    ? `Step ${failed.index + 1} (${failed.workerName}) failed (${failed.error.code}): ${failed.error.message}`
    : (record.message ?? "The run ended without an answer.");
  return { code: "worker_failed", message: why };
}

/**
 * Scores one item with the one reward rule (`rewardOf`, training/reward.ts); never throws on model failures. A failed worker call, an unknown worker name or
 * an undecidable score is an error with reward null, so a trainer never learns from a silent 0.
 */
export async function rewardItem(
  e: RewardEngine,
  item: RewardItem,
  scheme: RewardScheme,
  signal: AbortSignal,
  onRecord?: (record: RunRecord) => void,
): Promise<RewardResult> {
  const out = base(item);
  const pool = itemPool(e.pool, item.pool);
  if ("missing" in pool) {
    const names = pool.missing.map((n) => `"${n}"`).join(", ");
    return {
      ...out,
      error: { code: "unknown_worker", message: `No worker named ${names} in the config.` },
    };
  }
  const scorerId = item.scorer ?? e.defaultScorer;
  const scorer = e.scorer(scorerId);
  if (typeof scorer === "string") return { ...out, error: { code: "unscored", message: scorer } };
  // Model ids out of range count as unparseable: the paper gives them no credit.
  const parsed = parseConductorOutput(item.completion, {
    workers: pool.length,
    maxSteps: e.maxSteps,
    round: 0,
  });
  if (!parsed.ok)
    return {
      ...out,
      reward: rewardOf(false, false, scheme),
      correct: false,
      parse_error: { code: parsed.code, message: parsed.message },
    };
  const steps = stepsByWorkerId(parsed.steps, shownIds(pool));
  const now = e.now ?? Date.now;
  const runId = newRunId(now());
  let record = emptyRecord(runId);
  const prompt = trainerPrompt(
    buildConductorMessages({
      question: item.question,
      pool,
      maxSteps: e.maxSteps,
      namedWorkers: e.namedWorkers,
      continuesAssistant: true,
    }),
  );
  const at = now();
  // The trainer sampled the plan: the record holds its prompt and text as the plan's, at no cost.
  const head = [
    {
      type: "run_start",
      at,
      runId,
      question: item.question,
      pool,
      conductor: e.conductor,
      maxSteps: e.maxSteps,
      maxRounds: 0,
      kind: "planned",
      parentId: null,
      prompt: { template: "", namedWorkers: e.namedWorkers },
    },
    { type: "plan_start", at, round: 0, messages: prompt },
    {
      type: "plan_finish",
      at,
      round: 0,
      raw: item.completion,
      usage: { promptTokens: 0, completionTokens: 0, estimated: false },
      cost: 0,
      steps,
      workerIds: shownIds(pool),
    },
  ] as const;
  for (const event of head) record = applyEvent(record, event);
  for await (const event of runConductor({
    question: item.question,
    pool,
    conductor: e.conductor,
    conductorBackend: e.conductorBackend,
    backendFor: e.backendFor,
    signal,
    runId,
    maxSteps: e.maxSteps,
    // Refinement rounds would be the configured Conductor's, not the sampled plan's.
    maxRounds: 0,
    maxCalls: e.maxCalls,
    prompt: { namedWorkers: e.namedWorkers },
    retry: e.retry,
    firstRound: { raw: item.completion, steps },
    now,
  }))
    record = applyEvent(record, event);
  onRecord?.(record);
  const t = record.totals;
  const ran = {
    ...out,
    format_ok: true,
    run_id: runId,
    cost: t.cost,
    // The plan's entry in the record counts as a call: the trainer made it, not this service.
    calls: Math.max(0, t.calls - 1),
    cached_calls: t.cachedCalls ?? 0,
    answer: record.answer,
  };
  if (record.status !== "done") return { ...ran, error: runFailure(record) };
  const answer = record.answer ?? "";
  const scored = await scorer.score(
    answer,
    { question: item.question, expected: referenceOf(item), tests: item.tests },
    signal,
  );
  if (scored.correct === null)
    return {
      ...ran,
      extracted: scored.extracted,
      error: { code: "unscored", message: scored.reason ?? "The scorer could not decide." },
    };
  return {
    ...ran,
    correct: scored.correct,
    extracted: scored.extracted,
    reward: rewardOf(true, scored.correct, scheme),
  };
}
