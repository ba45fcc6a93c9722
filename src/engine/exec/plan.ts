import { callCost, pricedUsage } from "../cost.ts";
import type { Failure } from "../errors.ts";
import { ERROR_MESSAGES, ErrorCode, failure } from "../errors.ts";
import { fitPrompt } from "../conductor/context.ts";
import { stepsByWorkerId } from "../conductor/shown-ids.ts";
import { parseConductorOutput } from "../conductor/parse.ts";
import { describeLoop, repetitionLoop } from "../conductor/loop.ts";
import type { RepetitionLoop } from "../conductor/loop.ts";
import type { ChatBackend, ChatRequest } from "../llm/types.ts";
import { LlmError } from "../llm/types.ts";
import type { EventOf, ParentPath, RunEvent } from "../schema/events.ts";
import type { ChatMessage } from "../schema/usage.ts";
import type { ConductorConfig } from "../schema/worker.ts";
import type { Step } from "../schema/workflow.ts";
import type { CallBudget } from "./execute.ts";
import { refusedGrammar } from "../conductor/constrain.ts";
import { callSite, callWithRetry, retryFields } from "./call.ts";
import { constrainedRequest, grammarProblem } from "./plan-grammar.ts";
import { AsyncQueue } from "./queue.ts";
import type { RetryPolicy } from "./retry.ts";
import { DEFAULT_RETRY } from "./retry.ts";

/** A 401/403 from the Conductor's endpoint names the Conductor, not a worker. */
export const CONDUCTOR_AUTH =
  "The Conductor's endpoint refused the API key (401/403). Check the Conductor's key in Settings → Conductor.";

export interface PlanOptions {
  backend: ChatBackend;
  conductor: Pick<ConductorConfig, "temperature" | "maxTokens" | "price" | "planGrammar"> &
    Partial<Pick<ConductorConfig, "kind">>;
  messages: ChatMessage[];
  /** The pool's worker ids in the order the prompt showed them: `model_id` n is `workerIds[n]`. */
  workerIds: readonly string[];
  maxSteps: number;
  round: number;
  signal: AbortSignal;
  retry?: Partial<RetryPolicy>;
  budget?: CallBudget;
  now?: () => number;
  /** Where this plan sits when it is nested (docs/protocol.md §1.6); absent at the top level. */
  parent?: ParentPath;
}

export type PlanOutcome =
  | { ok: true; raw: string; steps: Step[] }
  | ({ ok: false; raw: string; cancelled: boolean } & Failure);

/**
 * Asks the Conductor for one round's workflow and parses it (docs/protocol.md §1.3), yielding plan
 * events. A Conductor call that fails and an output that does not parse both end as `plan_finish`
 * with an error, keeping the raw text so the user can read, repair or retry it.
 */
export async function* planRound(o: PlanOptions): AsyncGenerator<RunEvent, PlanOutcome> {
  const now = o.now ?? Date.now;
  const { round } = o;
  const scope = o.parent ? { parent: o.parent } : {};
  const mode = o.conductor.planGrammar ?? "off";
  const plain: ChatRequest = {
    messages: o.messages,
    temperature: o.conductor.temperature,
    maxTokens: o.conductor.maxTokens,
    site: callSite(o.parent, round, "plan"),
  };
  const workers = o.workerIds.length;
  const constrained = constrainedRequest(plain, mode, { workers, maxSteps: o.maxSteps, round });
  let request = constrained.request;
  // The opening whose instruction the request lost to the grammar, recorded with what was sent so
  // that a continued run rebuilds the conversation as this run goes on with it (`o.messages`).
  let opening = constrained.opening;
  const started = (messages: ChatMessage[]): EventOf<"plan_start"> => ({
    type: "plan_start",
    ...scope,
    at: now(),
    round,
    messages,
    ...(opening !== undefined ? { opening } : {}),
  });
  const notices: string[] = [];
  const fitted = yield* fitContext(o, request, started, now);
  if (!fitted.ok) return fitted;
  request = fitted.request;
  if (fitted.notice) notices.push(fitted.notice);
  yield started(request.messages);
  let raw = "";
  // A repetition loop stops the call through a signal of its own that also follows the caller's
  // (which stays untouched); AbortSignal.any is missing from some WebGPU-capable browsers.
  const stopLoop = new AbortController();
  const follow = () => stopLoop.abort();
  if (o.signal.aborted) follow();
  else o.signal.addEventListener("abort", follow, { once: true });
  const signal = stopLoop.signal;
  let looped: RepetitionLoop | undefined;
  let checkedAt = 0;
  // Streamed text flows through a queue; a retry starts the text over with a fresh plan_start.
  const stream = new AsyncQueue<RunEvent>();
  const attempt = (req: ChatRequest) =>
    callWithRetry(
      o.backend,
      req,
      signal,
      { ...DEFAULT_RETRY, ...o.retry },
      {
        mayCall: o.budget ? () => o.budget!.take() : undefined,
        onAttempt: (n) => {
          raw = "";
          checkedAt = 0;
          if (n > 1) stream.push(started(req.messages));
        },
        onDelta: (text) => {
          raw += text;
          stream.push({ type: "plan_delta", ...scope, round, text });
          if (raw.length - checkedAt >= 256) {
            checkedAt = raw.length;
            const loop = looped ? undefined : repetitionLoop(raw);
            if (loop) {
              looped = loop;
              stopLoop.abort();
            }
          }
        },
        onReasoning: (text) => stream.push({ type: "plan_reasoning", ...scope, round, text }),
        onReclassify: (text) => {
          raw = "";
          checkedAt = 0;
          stream.push({ type: "plan_reasoning", ...scope, round, text, reclassified: true });
        },
        onRetry: (...retry) =>
          stream.push({ type: "plan_retry", ...scope, at: now(), round, ...retryFields(...retry) }),
      },
    );
  // The unconstrained request, fitted to the context window like the constrained one.
  const fitPlain = async (req: ChatRequest): Promise<ChatRequest> => {
    const window = o.backend.contextWindow;
    const count = o.backend.countTokens?.bind(o.backend);
    if (!window || !count) return req;
    const fit = await fitPrompt(req.messages, { window, reserve: req.maxTokens, count });
    if (!fit.ok) throw new LlmError("prompt_too_long", fit.message.replace(/^[^:]*: /, ""));
    return { ...req, messages: fit.messages };
  };
  const call = (async () => {
    try {
      return await attempt(request);
    } catch (e: unknown) {
      // The in-browser grammar did not compile: plan unconstrained rather than not at all.
      const problem = grammarProblem(e, request);
      if (!problem) throw e;
      notices.push(problem);
      request = await fitPlain(plain);
      opening = undefined;
      raw = "";
      stream.push(started(request.messages));
      return await attempt(request);
    }
  })().finally(() => {
    o.signal.removeEventListener("abort", follow);
    stream.close();
  });
  // The call can fail while the consumer is between events, before the await below: handle the
  // rejection now (it is still awaited and reported below) so it never counts as unhandled.
  void call.catch(() => undefined);
  yield* stream;
  const notice = notices.length > 0 ? { notice: notices.join(" ") } : {};
  try {
    // The call's own reasoning, a block that a bare `</think>` moved out of the answer included.
    const result = await call;
    const { text } = result;
    const thought = result.reasoning ? { reasoning: result.reasoning } : {};
    const cost = callCost(result.usage, o.conductor.price);
    // A remote Conductor with no price is unpriced like a worker: its plan's cost is unknown, not $0.
    const usage = pricedUsage(result.usage, o.conductor.price, o.conductor.kind !== "webllm");
    const parsed = parseConductorOutput(text, { workers, maxSteps: o.maxSteps, round });
    const finish = {
      type: "plan_finish",
      ...scope,
      at: now(),
      round,
      raw: text,
      ...thought,
    } as const;
    if (!parsed.ok) {
      const loop = repetitionLoop(text);
      const f = loop ? failure("repetition_loop", describeLoop(loop)) : parsed;
      const error = { code: f.code, message: f.message };
      yield { ...finish, usage, cost, error, ...notice };
      return { ok: false, raw: text, cancelled: false, ...error };
    }
    const steps = stepsByWorkerId(parsed.steps, o.workerIds);
    const workerIds = [...o.workerIds];
    yield { ...finish, usage, cost, steps, workerIds, ...notice };
    return { ok: true, raw: text, steps };
  } catch (e: unknown) {
    const err = failureOf(e, looped, o.signal, mode);
    // Nothing was counted, so nothing is estimated: marking it would flag the run's totals.
    const usage = { promptTokens: 0, completionTokens: 0, estimated: false };
    const error = { code: err.code, message: err.message };
    yield {
      type: "plan_finish",
      ...scope,
      at: now(),
      round,
      raw,
      usage,
      cost: 0,
      error,
      ...notice,
    };
    return { ok: false, raw, cancelled: err.code === ErrorCode.aborted, ...error };
  }
}

/** The failure a Conductor call ended in: a loop it was stopped for, a refused grammar, or its own. */
function failureOf(
  e: unknown,
  looped: RepetitionLoop | undefined,
  signal: AbortSignal,
  mode: NonNullable<ConductorConfig["planGrammar"]>,
): Failure {
  if (looped && !signal.aborted) return failure("repetition_loop", describeLoop(looped));
  const err = refusedGrammar(e instanceof LlmError ? e : new LlmError("unknown", String(e)), mode);
  if (err.code === ErrorCode.aborted) return failure("aborted");
  // The adapters' messages speak of "this worker"; here the endpoint is the Conductor's.
  const message =
    err.code === ErrorCode.auth
      ? err.message.replace(ERROR_MESSAGES.auth, CONDUCTOR_AUTH)
      : err.message;
  return { code: err.code, message };
}

/**
 * Checks that the prompt fits the backend's context window where it has one, shortening a carried
 * answer if that is enough; a prompt that cannot fit ends the plan before any call (`started`
 * gives the plan_start it records, as planRound records its own).
 */
async function* fitContext(
  o: PlanOptions,
  request: ChatRequest,
  started: (messages: ChatMessage[]) => EventOf<"plan_start">,
  now: () => number,
): AsyncGenerator<
  RunEvent,
  | { ok: true; request: ChatRequest; notice?: string }
  | ({ ok: false; raw: string; cancelled: false } & Failure)
> {
  const window = o.backend.contextWindow;
  const count = o.backend.countTokens?.bind(o.backend);
  if (!window || !count) return { ok: true, request };
  let fit: Awaited<ReturnType<typeof fitPrompt>>;
  try {
    fit = await fitPrompt(request.messages, { window, reserve: request.maxTokens, count });
  } catch {
    // A counter that fails (a tokenizer gone with its model) only loses the check: the backend
    // itself refuses a prompt too long for it, with its own error.
    return { ok: true, request };
  }
  if (fit.ok) {
    const notice =
      fit.shortened > 0
        ? `The carried answer was shortened by ${fit.shortened.toLocaleString("en-US")} characters (marked in the prompt) to fit the ${window.toLocaleString("en-US")}-token context window.`
        : undefined;
    return { ok: true, request: { ...request, messages: fit.messages }, notice };
  }
  const error = { code: fit.code, message: fit.message };
  const usage = { promptTokens: 0, completionTokens: 0, estimated: false };
  const scope = o.parent ? { parent: o.parent } : {};
  yield started(request.messages);
  yield {
    type: "plan_finish",
    ...scope,
    at: now(),
    round: o.round,
    raw: "",
    usage,
    cost: 0,
    error,
  };
  return { ok: false, raw: "", cancelled: false, ...error };
}
