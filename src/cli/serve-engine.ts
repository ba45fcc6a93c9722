// The engine side of `serve` and `run`: one runner (the same `runConductor` the studio uses) per
// question, its events folded into a run record as they come.
import { DEFAULT_TEMPLATE } from "../engine/conductor/prompt.ts";
import { runConductor } from "../engine/exec/run.ts";
import type { ResponseCache } from "../engine/llm/cache.ts";
import { withCache } from "../engine/llm/cache.ts";
import { createOpenAIBackend } from "../engine/llm/openai.ts";
import type { ChatBackend } from "../engine/llm/types.ts";
import { applyEvent, emptyRecord } from "../engine/run/record.ts";
import type { RunEvent } from "../engine/schema/events.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import type { Worker } from "../engine/schema/worker.ts";
import type { ResolvedConfig } from "./config.ts";
import type { ContextMessage } from "./serve-request.ts";

export interface ServeEngine {
  resolved: ResolvedConfig;
  conductorBackend: ChatBackend;
  backendFor: (w: Worker) => ChatBackend;
}

/**
 * Backends for the Conductor and every worker, built once and shared by all requests; with a
 * `cache` (`--cache DIR`), each answers repeated requests from it.
 */
export function createEngine(resolved: ResolvedConfig, cache?: ResponseCache): ServeEngine {
  const { config, conductor, pool, keys } = resolved;
  const timeoutMs = config.timeoutMs;
  const conductorBackend = createOpenAIBackend({
    baseURL: conductor.baseURL,
    model: conductor.model,
    apiKey: keys.get("conductor"),
    headers: conductor.headers,
    timeoutMs,
  });
  const workers = new Map(
    pool.map((w) => [
      w.id,
      createOpenAIBackend({
        baseURL: w.baseURL,
        model: w.model,
        apiKey: keys.get(w.id),
        headers: w.headers,
        timeoutMs,
      }),
    ]),
  );
  if (cache) {
    for (const w of pool) workers.set(w.id, withCache(workers.get(w.id)!, cache, w));
    const planner = withCache(conductorBackend, cache, conductor);
    return { resolved, conductorBackend: planner, backendFor: (w) => workers.get(w.id) ?? planner };
  }
  return {
    resolved,
    conductorBackend,
    backendFor: (w) => workers.get(w.id) ?? conductorBackend,
  };
}

const ROLE_LABEL: Record<string, string> = {
  system: "System",
  developer: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
};

/** The template's placeholders, broken up so that context text is never filled in as one. */
const PLACEHOLDER = /\{\{(\s*(?:max_steps|question|workers)\s*)\}\}/g;

/**
 * The Conductor's template with the earlier messages of the conversation shown before the
 * question, so the Conductor can pass what matters on in its subtasks; undefined when there are none.
 */
export function templateWithContext(context: ContextMessage[]): string | undefined {
  if (context.length === 0) return undefined;
  const lines = context.map(
    (m) => `${ROLE_LABEL[m.role] ?? m.role}: ${m.content.replace(PLACEHOLDER, "{ {$1} }")}`,
  );
  const block = `CONVERSATION SO FAR (the messages before the question, for context):\n${lines.join("\n\n")}\nEND OF CONVERSATION SO FAR\n\n`;
  return DEFAULT_TEMPLATE.replace("USER QUESTION:\n", `${block}USER QUESTION:\n`);
}

export interface RunInput {
  question: string;
  context: ContextMessage[];
  /** The record's id; when absent the runner makes one from the start time. */
  runId?: string;
  signal: AbortSignal;
  /** Sees every event with the record after it. */
  onEvent?: (e: RunEvent, record: RunRecord) => void;
}

/** Plans and runs one question; never throws on model failures (they end the record). */
export async function runQuestion(engine: ServeEngine, input: RunInput): Promise<RunRecord> {
  const { config, conductor, pool } = engine.resolved;
  let record = emptyRecord(input.runId);
  const template = templateWithContext(input.context);
  for await (const event of runConductor({
    question: input.question,
    pool,
    conductor,
    conductorBackend: engine.conductorBackend,
    backendFor: engine.backendFor,
    signal: input.signal,
    runId: input.runId,
    maxSteps: config.maxSteps,
    maxRounds: config.rounds,
    maxCalls: config.maxCalls,
    prompt: { namedWorkers: config.namedWorkers, ...(template ? { template } : {}) },
    retry: { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) },
  })) {
    record = applyEvent(record, event);
    input.onEvent?.(event, record);
  }
  return record;
}

/** The reason a run gave no answer, for the client: the plan's error or the failed step's. */
export function failureOf(record: RunRecord): { code: string; message: string } {
  const round = record.rounds.at(-1);
  const planError = round?.plan?.error;
  if (record.endReason === "plan_error" && planError) {
    return {
      code: "plan_error",
      message: `The Conductor's plan could not be used (${planError.code}): ${planError.message}`,
    };
  }
  const failed = round?.steps.find((s) => s.status === "failed");
  if (failed?.error) {
    return {
      code: "step_error",
      message: `Step ${failed.index + 1} (${failed.workerName}) failed (${failed.error.code}): ${failed.error.message}`,
    };
  }
  return {
    code: record.endReason ?? "run_failed",
    message: record.message ?? "The run ended without an answer.",
  };
}
