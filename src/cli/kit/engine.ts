// The engine side of `serve` and `run`: one runner (the same `runConductor` the studio uses) per
// question, its events folded into a run record as they come.
import type { Failure } from "../../engine/errors.ts";
import { ENDING_TEXT, EndReason, ErrorCode } from "../../engine/errors.ts";
import { DEFAULT_TEMPLATE } from "../../engine/conductor/prompt.ts";
import type { FallbackPolicy } from "../../engine/exec/fallback.ts";
import { runConductor } from "../../engine/exec/simple-runs.ts";
import type { ResponseCache } from "../../engine/llm/cache.ts";
import { withCache } from "../../engine/llm/cache.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import { LlmError } from "../../engine/llm/types.ts";
import { applyEvent, emptyRecord } from "../../engine/run/record.ts";
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { ResolvedConfig } from "../config.ts";
import type { ServeErrorCode } from "../serve/error-replies.ts";
import { codeForCall } from "../serve/error-replies.ts";
import type { ContextMessage } from "../serve/request.ts";
import { CLI_TIMEOUTS, backendFor } from "./backend.ts";

export interface ServeEngine {
  resolved: ResolvedConfig;
  /** Asking the Conductor again when its plan does not parse, then perhaps a worker alone. */
  fallback: FallbackPolicy;
  conductorBackend: ChatBackend;
  backendFor: (w: Worker) => ChatBackend;
}

/** The worker a `--fallback worker:NAME` names, by its name in the pool. */
export function fallbackWorkerId(
  resolved: ResolvedConfig,
  name: string | undefined,
): { ok: true; id: string | undefined } | ({ ok: false } & Failure) {
  if (name === undefined) return { ok: true, id: undefined };
  const worker = resolved.pool.find((w) => w.name === name);
  if (worker) return { ok: true, id: worker.id };
  const names = resolved.pool.map((w) => `"${w.name}"`).join(", ");
  return {
    ok: false,
    code: ErrorCode.invalid_argument,
    message: `--fallback worker:${name}: no worker has that name (${names}).`,
  };
}

export interface EngineOptions {
  /** `--cache DIR`: every backend answers repeated requests from it. */
  cache?: ResponseCache;
  /** A worker id that answers alone when the Conductor cannot plan (`--fallback worker:NAME`). */
  fallbackWorker?: string;
  /** The Conductor's backend when it is not the config's endpoint (`--conductor-gguf`). */
  conductor?: ChatBackend;
}

/**
 * Backends for the Conductor and every worker, built once and shared by all requests. A plan that
 * does not parse is asked for once more; `fallbackWorker` then answers alone.
 */
export function createEngine(resolved: ResolvedConfig, options: EngineOptions = {}): ServeEngine {
  const { cache, fallbackWorker } = options;
  const { conductor, pool } = resolved;
  const conductorBackend = options.conductor ?? backendFor(resolved, "conductor", conductor);
  const workers = new Map(pool.map((w) => [w.id, backendFor(resolved, w.id, w)]));
  if (cache) for (const w of pool) workers.set(w.id, withCache(workers.get(w.id)!, cache, w));
  const planner = cache ? withCache(conductorBackend, cache, conductor) : conductorBackend;
  return {
    resolved,
    fallback: { replans: 1, ...(fallbackWorker ? { workerId: fallbackWorker } : {}) },
    conductorBackend: planner,
    backendFor: (w) => workers.get(w.id) ?? planner,
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
  /** Sees every failed model call of the run (the record keeps codes, not Retry-After). */
  onCallError?: (e: LlmError) => void;
}

/** `backend` with every failure it throws shown to `seen` first. */
function observed(backend: ChatBackend, seen: (e: LlmError) => void): ChatBackend {
  return {
    ...backend,
    async *stream(request, signal) {
      try {
        yield* backend.stream(request, signal);
      } catch (e: unknown) {
        if (e instanceof LlmError) seen(e);
        throw e;
      }
    },
  };
}

/** Plans and runs one question; never throws on model failures (they end the record). */
export async function runQuestion(engine: ServeEngine, input: RunInput): Promise<RunRecord> {
  const { config, conductor, pool } = engine.resolved;
  let record = emptyRecord(input.runId);
  const template = templateWithContext(input.context);
  const seen = input.onCallError;
  const backendFor = seen ? (w: Worker) => observed(engine.backendFor(w), seen) : engine.backendFor;
  for await (const event of runConductor({
    question: input.question,
    pool,
    conductor,
    conductorBackend: seen ? observed(engine.conductorBackend, seen) : engine.conductorBackend,
    backendFor,
    signal: input.signal,
    runId: input.runId,
    maxSteps: config.maxSteps,
    maxRounds: config.rounds,
    maxCalls: config.maxCalls,
    fallback: engine.fallback,
    prompt: { namedWorkers: config.namedWorkers, ...(template ? { template } : {}) },
    retry: { ...config.retry, timeoutMs: config.timeoutMs ?? CLI_TIMEOUTS.attemptMs },
  })) {
    record = applyEvent(record, event);
    input.onEvent?.(event, record);
  }
  return record;
}

/** Why a run gave no answer, as `serve` answers it. */
export interface RunFailure {
  code: ServeErrorCode;
  message: string;
  /** The provider's Retry-After in seconds, for a rate limit. */
  retryAfterS?: number;
}

/**
 * The reason a run gave no answer, for the client: the plan's error or the failed step's, coded by
 * its cause. `lastError` is the run's last failed call, whose Retry-After the record does not keep.
 */
export function failureOf(record: RunRecord, lastError?: LlmError): RunFailure {
  const round = record.rounds.at(-1);
  const planError = round?.plan?.error;
  const retryAfter = (code: ServeErrorCode) =>
    code === "upstream_rate_limited" && lastError?.retryAfterMs !== undefined
      ? { retryAfterS: Math.max(1, Math.ceil(lastError.retryAfterMs / 1000)) }
      : {};
  if (record.endReason === EndReason.plan_error && planError) {
    const code = codeForCall(planError.code);
    const what =
      code === "plan_error"
        ? "The Conductor's plan could not be used"
        : "The Conductor's call failed";
    return {
      code,
      message: `${what} (${planError.code}): ${forCommandLine(planError.message)}`,
      ...retryAfter(code),
    };
  }
  if (record.endReason === EndReason.budget) {
    return { code: "call_budget", message: record.message ?? ENDING_TEXT.budget };
  }
  const failed = round?.steps.find((s) => s.status === "failed");
  if (failed?.error) {
    const code = codeForCall(failed.error.code);
    return {
      code,
      message: `Step ${failed.index + 1} (${failed.workerName}) failed (${failed.error.code}): ${forCommandLine(failed.error.message)}`,
      ...retryAfter(code),
    };
  }
  return {
    code: "upstream_unavailable",
    message: forCommandLine(record.message ?? "The run ended without an answer."),
  };
}

/**
 * Engine messages are written for the studio and name its screens; on the command line (and to a
 * server's clients) the same setting lives in the pool config.
 */
const STUDIO_HINTS: [RegExp, string][] = [
  [
    /Check the Conductor's key in Settings → Conductor\./g,
    'Check the key named by "conductor.apiKeyEnv" in the config.',
  ],
  [
    /In Settings → Conductor choose the "constrain the plan" option this server supports, or turn it off\./g,
    'Set "conductor.planGrammar" in the config to the field this server supports, or to "off".',
  ],
  [/\(Settings → Conductor\)/g, '(the config\'s "conductor" entry)'],
  [/Settings → Conductor/g, 'the config\'s "conductor" entry'],
];

/** `message` with the studio's "Settings → Conductor" hints turned into the config's fields. */
export function forCommandLine(message: string): string {
  return STUDIO_HINTS.reduce((text, [re, hint]) => text.replace(re, hint), message);
}
