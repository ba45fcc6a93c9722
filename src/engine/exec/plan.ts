import { callCost } from "../cost.ts";
import type { Failure } from "../errors.ts";
import { ERROR_MESSAGES, failure } from "../errors.ts";
import { parseConductorOutput } from "../conductor/parse.ts";
import type { ChatBackend } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { ParentPath, RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { ConductorConfig } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { CallBudget } from "./execute.ts";
import { callWithRetry } from "./call.ts";
import { AsyncQueue } from "./queue.ts";
import type { RetryPolicy } from "./retry.ts";
import { DEFAULT_RETRY } from "./retry.ts";

/** A 401/403 from the Conductor's endpoint names the Conductor, not a worker. */
export const CONDUCTOR_AUTH =
  "The Conductor's endpoint refused the API key (401/403). Check the Conductor's key in Settings → Conductor.";

export interface PlanOptions {
  backend: ChatBackend;
  conductor: Pick<ConductorConfig, "temperature" | "maxTokens" | "price">;
  messages: ChatMessage[];
  workers: number;
  maxSteps: number;
  round: number;
  signal: AbortSignal;
  retry?: Partial<RetryPolicy>;
  budget?: CallBudget;
  now?: () => number;
  /** Where this plan sits when it is nested (SPEC 1.6); absent at the top level. */
  parent?: ParentPath;
}

export type PlanOutcome =
  | { ok: true; raw: string; steps: Step[] }
  | ({ ok: false; raw: string; cancelled: boolean } & Failure);

/**
 * Asks the Conductor for one round's workflow and parses it (SPEC 1.3), yielding plan events. A
 * Conductor call that fails and an output that does not parse both end as `plan_finish` with an
 * error, keeping the raw text so the user can read, repair or retry it.
 */
export async function* planRound(o: PlanOptions): AsyncGenerator<RunEvent, PlanOutcome> {
  const now = o.now ?? Date.now;
  const { round } = o;
  const scope = o.parent ? { parent: o.parent } : {};
  yield { type: "plan_start", ...scope, at: now(), round, messages: o.messages };
  let raw = "";
  // Streamed text flows through a queue; a retry starts the text over with a fresh plan_start.
  const stream = new AsyncQueue<RunEvent>();
  const call = callWithRetry(
    o.backend,
    {
      messages: o.messages,
      temperature: o.conductor.temperature,
      maxTokens: o.conductor.maxTokens,
    },
    o.signal,
    { ...DEFAULT_RETRY, ...o.retry },
    {
      mayCall: o.budget ? () => o.budget!.take() : undefined,
      onAttempt: (attempt) => {
        raw = "";
        if (attempt > 1)
          stream.push({ type: "plan_start", ...scope, at: now(), round, messages: o.messages });
      },
      onDelta: (text) => {
        raw += text;
        stream.push({ type: "plan_delta", ...scope, round, text });
      },
    },
  ).finally(() => stream.close());
  // The call can fail while the consumer is between events, before the await below: handle the
  // rejection now (it is still awaited and reported below) so it never counts as unhandled.
  void call.catch(() => undefined);
  yield* stream;
  try {
    const { text, usage } = await call;
    const cost = callCost(usage, o.conductor.price);
    const parsed = parseConductorOutput(text, { workers: o.workers, maxSteps: o.maxSteps, round });
    if (!parsed.ok) {
      const error = { code: parsed.code, message: parsed.message };
      yield { type: "plan_finish", ...scope, at: now(), round, raw: text, usage, cost, error };
      return { ok: false, raw: text, cancelled: false, ...error };
    }
    yield {
      type: "plan_finish",
      ...scope,
      at: now(),
      round,
      raw: text,
      usage,
      cost,
      steps: parsed.steps,
    };
    return { ok: true, raw: text, steps: parsed.steps };
  } catch (e: unknown) {
    const err = e instanceof LlmError ? e : new LlmError("unknown", String(e));
    const f = failure(err.code === "aborted" ? "aborted" : err.code);
    // The adapters' messages speak of "this worker"; here the endpoint is the Conductor's.
    const message =
      err.code === "aborted"
        ? f.message
        : err.code === "auth"
          ? err.message.replace(ERROR_MESSAGES.auth, CONDUCTOR_AUTH)
          : err.message;
    const error = { code: err.code, message };
    // Nothing was counted, so nothing is estimated: marking it would flag the run's totals.
    const usage = { promptTokens: 0, completionTokens: 0, estimated: false };
    yield { type: "plan_finish", ...scope, at: now(), round, raw, usage, cost: 0, error };
    return { ok: false, raw, cancelled: err.code === "aborted", ...error };
  }
}
