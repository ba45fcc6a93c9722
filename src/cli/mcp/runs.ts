// The runs behind the MCP tools: plan only, run a given plan, or both, each through the one runner
// (`runRun`) on serve's engine, so a tool call is a run like the studio's, with its id and cost.
import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
import { runRun } from "../../engine/exec/runner.ts";
import type { RunStart } from "../../engine/exec/runner.ts";
import { applyEvent, emptyRecord } from "../../engine/run/record.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { Pool } from "../../engine/schema/worker.ts";
import type { Access, Step } from "../../engine/schema/workflow.ts";
import { CLI_TIMEOUTS } from "../kit/backend.ts";
import { failureOf } from "../kit/engine.ts";
import type { ServeEngine } from "../kit/engine.ts";

/**
 * A plan as the tools show it and take it back: workers by name, access as
 * in docs/protocol.md §1.1.
 */
export interface ToolStep {
  worker: string;
  subtask: string;
  access: Access;
}

/** What every tool answers: the run's id, status, cost and answer, and its (first) plan. */
export interface ToolRun {
  run_id: string;
  status: string;
  answer: string | null;
  cost: number;
  calls: number;
  plan: ToolStep[];
  error: { code: string; message: string } | null;
}

export type Resolved<T> = { ok: true; value: T } | ({ ok: false } & Failure);

/** The pool, or the subset of it that `names` picks (in pool order); an unknown name is refused. */
export function poolOf(engine: ServeEngine, names: string[] | undefined): Resolved<Pool> {
  const pool = engine.resolved.pool;
  if (!names || names.length === 0) return { ok: true, value: pool };
  const unknown = names.filter((n) => !pool.some((w) => w.name === n));
  if (unknown.length)
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: `No worker named ${unknown.map((n) => `"${n}"`).join(", ")}; the pool has ${pool.map((w) => `"${w.name}"`).join(", ")}.`,
    };
  return { ok: true, value: pool.filter((w) => names.includes(w.name)) };
}

/** A tool's plan as runner steps: each worker by name in `pool`; an unknown one is refused. */
export function stepsOf(plan: ToolStep[], pool: Pool): Resolved<Step[]> {
  const steps: Step[] = [];
  for (const [i, s] of plan.entries()) {
    const worker = pool.find((w) => w.name === s.worker);
    if (!worker)
      return {
        ok: false,
        code: ErrorCode.invalid_argument,
        message: `Step ${i + 1} names no worker of the pool: "${s.worker}".`,
      };
    steps.push({ worker: worker.id, subtask: s.subtask, access: s.access });
  }
  return { ok: true, value: steps };
}

/** Steps finished so far and steps planned in the run's latest round, for progress. */
export interface Progress {
  done: number;
  total: number;
  message: string;
}

export interface ToolRunInput {
  question: string;
  pool: Pool;
  /** Plan only, run these steps, or plan and run. */
  mode: { kind: "plan" } | { kind: "run"; steps: Step[] } | { kind: "solve" };
  signal: AbortSignal;
  onProgress?: (p: Progress) => void;
}

/** Runs one tool call; never throws on model failures (they end the record with a code). */
export async function toolRun(engine: ServeEngine, input: ToolRunInput): Promise<ToolRun> {
  const { config, conductor } = engine.resolved;
  const start: RunStart =
    input.mode.kind === "run"
      ? { from: "round", round: 0, steps: input.mode.steps }
      : { from: "plan", planOnly: input.mode.kind === "plan" };
  let record: RunRecord = emptyRecord();
  for await (const event of runRun({
    question: input.question,
    pool: input.pool,
    conductor,
    conductorBackend: engine.conductorBackend,
    backendFor: engine.backendFor,
    signal: input.signal,
    start,
    run: { kind: input.mode.kind === "run" ? "edited" : "planned" },
    refine: input.mode.kind === "solve",
    maxSteps: config.maxSteps,
    maxRounds: config.rounds,
    maxCalls: config.maxCalls,
    fallback: engine.fallback,
    prompt: { namedWorkers: config.namedWorkers },
    retry: { ...config.retry, timeoutMs: config.timeoutMs ?? CLI_TIMEOUTS.attemptMs },
  })) {
    record = applyEvent(record, event);
    if (input.onProgress && isProgress(event)) input.onProgress(progressOf(record));
  }
  return toolResult(record);
}

function isProgress(e: RunEvent): boolean {
  return e.type === "plan_finish" || e.type === "step_finish" || e.type === "step_error";
}

function progressOf(record: RunRecord): Progress {
  const round = record.rounds.at(-1);
  const steps = round?.steps ?? [];
  const done = steps.filter((s) => s.status === "done" || s.status === "failed").length;
  const last = [...steps].reverse().find((s) => s.status === "done" || s.status === "failed");
  const message = last
    ? `Step ${last.index + 1} of ${steps.length} (${last.workerName}) ${last.status}`
    : `Planned ${steps.length} steps`;
  return { done, total: Math.max(steps.length, 1), message };
}

/** The run as a tool answers it. */
export function toolResult(record: RunRecord): ToolRun {
  const first = record.rounds[0];
  const nameOf = (id: string) => record.pool.find((w) => w.id === id)?.name ?? id;
  // A plan-only run keeps its plan as the three lists; a run that ran keeps its steps.
  const lists = first?.lists;
  const plan: ToolStep[] = first?.steps.length
    ? first.steps.map((s) => ({ worker: s.workerName, subtask: s.subtask, access: s.access }))
    : (lists?.subtasks ?? []).map((subtask, i) => ({
        worker: nameOf(lists?.workerIds[lists.model_id[i] ?? -1] ?? ""),
        subtask,
        access: lists?.access_list[i] ?? [],
      }));
  const ok = record.status === "done" || record.status === "planned";
  const failure = ok ? null : failureOf(record);
  return {
    run_id: record.id,
    status: record.status,
    answer: record.answer,
    cost: record.totals.cost,
    calls: record.totals.calls,
    plan,
    error: failure ? { code: failure.code, message: failure.message } : null,
  };
}
