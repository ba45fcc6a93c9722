// The OpenAI `usage` of a served run and its `conductor_trace` extension, both read off the record.
import { modelIdOf } from "../../engine/conductor/shown-ids.ts";
import type { RoundRecord, RunRecord } from "../../engine/schema/record.ts";
import type { Usage } from "../../engine/schema/usage.ts";

/** `usage` of the whole run: every call summed, the Conductor's included. */
export function usageOf(record: RunRecord) {
  const t = record.totals;
  return {
    prompt_tokens: t.promptTokens,
    completion_tokens: t.completionTokens,
    total_tokens: t.promptTokens + t.completionTokens,
  };
}

interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  estimated: boolean;
}

/** One round of the trace: its plan, its steps (nested workflows inside them) and its answer. */
export interface RoundTrace {
  index: number;
  accepted: boolean;
  /** Set when a worker answered alone because the Conductor could not plan. */
  fallback: { worker_id: string; reason: { code: string; message: string } } | null;
  plan: {
    raw: string;
    usage: WireUsage | null;
    cost: number | null;
    latency_ms: number | null;
    error: { code: string; message: string } | null;
  } | null;
  lists: RoundRecord["lists"];
  steps: {
    index: number;
    /** The worker's id in the pool. */
    worker_id: string;
    /** The Conductor's number for it (`lists.workerIds`), -1 when the round's lists lack it. */
    model_id: number;
    worker_name: string;
    subtask: string;
    access: RoundRecord["steps"][number]["access"];
    status: string;
    output: string;
    attempts: number;
    usage: WireUsage | null;
    cost: number | null;
    latency_ms: number | null;
    error: { code: string; message: string } | null;
    nested: { answer: string | null; rounds: RoundTrace[] } | null;
  }[];
  answer: string | null;
}

function wireUsage(u: Usage | null): WireUsage | null {
  return (
    u && {
      prompt_tokens: u.promptTokens,
      completion_tokens: u.completionTokens,
      estimated: u.estimated,
    }
  );
}

function latency(start: number | null, end: number | null): number | null {
  return start !== null && end !== null ? end - start : null;
}

function roundTrace(r: RoundRecord): RoundTrace {
  return {
    index: r.index,
    accepted: r.accepted,
    fallback: r.fallback ? { worker_id: r.fallback.worker, reason: r.fallback.reason } : null,
    plan: r.plan && {
      raw: r.plan.raw,
      usage: wireUsage(r.plan.usage),
      cost: r.plan.cost,
      latency_ms: latency(r.plan.startedAt, r.plan.finishedAt),
      error: r.plan.error,
    },
    lists: r.lists,
    steps: r.steps.map((s) => ({
      index: s.index,
      worker_id: s.worker,
      model_id: r.lists ? modelIdOf(r.lists.workerIds, s.worker) : -1,
      worker_name: s.workerName,
      subtask: s.subtask,
      access: s.access,
      status: s.status,
      output: s.output,
      attempts: s.attempts,
      usage: wireUsage(s.usage),
      cost: s.cost,
      latency_ms: latency(s.startedAt, s.finishedAt),
      error: s.error,
      nested: s.nested && { answer: s.nested.answer, rounds: s.nested.rounds.map(roundTrace) },
    })),
    answer: r.answer,
  };
}

/**
 * The `conductor_trace` extension field: the plan (raw text and the three lists), every step with
 * its usage, cost and latency, and the totals. The messages each model read are left to the full
 * record that `--runs` writes.
 */
export function traceOf(record: RunRecord) {
  return {
    run_id: record.id,
    status: record.status,
    end_reason: record.endReason,
    message: record.message,
    rounds: record.rounds.map(roundTrace),
    totals: {
      ...usageOf(record),
      cost: record.totals.cost,
      calls: record.totals.calls,
      estimated: record.totals.estimated,
    },
    latency_ms: latency(record.startedAt, record.finishedAt),
  };
}
