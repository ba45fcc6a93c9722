// One served request (chat completions or responses): admit, run, answer (whole or streamed), record.
import type { ServerResponse } from "node:http";
import { newRunId } from "../../engine/exec/simple-runs.ts";
import type { LlmError } from "../../engine/llm/types.ts";
import type { Attributes } from "../../engine/otel/span.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { ServeEngine } from "../kit/engine.ts";
import { failureOf, runQuestion } from "../kit/engine.ts";
import type { ApiError } from "./error-replies.ts";
import { apiError } from "./error-replies.ts";
import type { RunLog } from "./log.ts";
import { runLine } from "./log.ts";
import type { RunQueue } from "./request-queue.ts";
import { sendError, sendJson } from "./reply.ts";
import type { ServeRequest } from "./request.ts";
import type { ChunkMeta, Wire, WireStream } from "./sse-stream.ts";
import { AnswerStream, SSE_HEADERS, SSE_KEEPALIVE } from "./sse-stream.ts";
import { traceOf } from "./trace.ts";

/** The abort reason a shutdown gives in-flight runs past the grace period. */
export const SHUTDOWN = "shutdown";

export interface ChatContext {
  engine: ServeEngine;
  queue: RunQueue;
  model: string;
  runLog: RunLog | undefined;
  /** Sends each run as an OpenTelemetry trace (serve --otlp-endpoint); in the background. */
  otlp?: { add: (record: RunRecord, attributes?: Attributes) => void };
  log: (line: string) => void;
  /** Registers a run so shutdown can cancel it; returns the unregister function. */
  track: (run: AbortController) => () => void;
  /** Calls `fn` once per keep-alive interval until the returned function stops it. */
  every: (fn: () => void) => () => void;
}

const SHUTDOWN_ERROR = apiError(
  "server_shutdown",
  "The server is shutting down; the run was cancelled. Retry against another replica.",
);

/** Where the run left the client: the HTTP status, and what to send if nothing has been yet. */
function outcomeOf(
  record: RunRecord,
  run: AbortSignal,
  lastError: LlmError | undefined,
): { status: number; error?: ApiError } {
  if (record.status === "done") return { status: 200 };
  if (record.status === "cancelled") {
    return run.reason === SHUTDOWN ? { status: 503, error: SHUTDOWN_ERROR } : { status: 499 };
  }
  const f = failureOf(record, lastError);
  const error = apiError(f.code, f.message, null, f.retryAfterS);
  return { status: error.status, error };
}

/**
 * Answers one validated request (chat completions or responses, as `wire` shapes it). Never
 * throws on model failures; they become answers. A streamed answer opens at once and sends an SSE
 * comment whenever nothing else was sent for a keep-alive interval.
 */
export async function handleChat(
  ctx: ChatContext,
  res: ServerResponse,
  request: ServeRequest,
  requestId: string,
  wire: Wire,
): Promise<void> {
  const received = new Date();
  const gone = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  // A client that left while its body was read closed the socket before the listener above.
  if (!res.socket || res.socket.destroyed) gone.abort();
  const admission = await ctx.queue.acquire(gone.signal);
  if (!admission.ok) {
    if (admission.reason === "full") {
      ctx.log(
        `${requestId} 429 queue full (${ctx.queue.active} running, ${ctx.queue.queued} waiting)`,
      );
      return sendError(
        res,
        apiError("queue_full", "Too many requests are waiting; retry shortly.", null, 1),
      );
    }
    if (admission.reason === "closed") {
      ctx.log(`${requestId} 503 shutting down`);
      return sendError(res, SHUTDOWN_ERROR, { Connection: "close" });
    }
    return ctx.log(`${requestId} 499 client left while queued`);
  }
  const run = new AbortController();
  const untrack = ctx.track(run);
  const onGone = () => run.abort("client disconnected");
  gone.signal.addEventListener("abort", onGone, { once: true });
  const runId = newRunId(received.getTime());
  const meta: ChunkMeta = {
    id: `${wire.prefix}-${runId}`,
    created: Math.floor(received.getTime() / 1000),
    model: ctx.model,
  };
  const stream = new AnswerStream(ctx.engine.resolved.config.rounds);
  const framing = request.stream ? wire.stream(meta) : undefined;
  let quiet = true;
  const write = (text: string) => {
    if (res.destroyed || !text) return;
    quiet = false;
    res.write(text);
  };
  let stopKeepAlive = () => undefined as void;
  if (framing) {
    res.writeHead(200, { ...SSE_HEADERS, ...ignoredHeader(request) });
    write(framing.open());
    // A comment only when the interval passed with nothing else sent.
    stopKeepAlive = ctx.every(() => {
      if (quiet) write(SSE_KEEPALIVE);
      quiet = true;
    });
  }
  let lastError: LlmError | undefined;
  let record: RunRecord;
  try {
    record = await runQuestion(ctx.engine, {
      question: request.question,
      context: request.context,
      runId,
      signal: run.signal,
      onCallError: (e) => (lastError = e),
      onEvent: framing
        ? (e) => {
            const text = stream.next(e);
            if (text) write(framing.delta(text));
          }
        : undefined,
    });
  } finally {
    stopKeepAlive();
    admission.release();
    untrack();
    gone.signal.removeEventListener("abort", onGone);
  }
  const outcome = outcomeOf(record, run.signal, lastError);
  const clientGone = gone.signal.aborted;
  const status = clientGone ? 499 : outcome.status;
  // Recorded before answering: a client holding an answer can count on its record being on disk.
  try {
    await ctx.runLog?.append(record, {
      request_id: requestId,
      received_at: received.toISOString(),
      stream: request.stream,
      // A stream's headers (200) went out before the run ended; its error travelled as an event.
      http_status: framing && !clientGone ? 200 : status,
      error_code: clientGone
        ? null
        : (outcome.error?.code ?? (framing && stream.diverged ? "stream_diverged" : null)),
      client_disconnected: clientGone,
    });
  } catch (e: unknown) {
    const why = e instanceof Error ? e.message : String(e);
    ctx.log(`${requestId} could not write the run record: ${why}`);
  }
  ctx.otlp?.add(record, {
    "conductor.serve.request_id": requestId,
    "http.response.status_code": status,
  });
  if (!clientGone) answer(res, { meta, request, record, outcome, stream, framing, wire, write });
  ctx.log(runLine(requestId, status, record, Date.now() - received.getTime()));
}

/** `x-conductor-ignored`: the sampling fields the request set that the pool config overrides. */
function ignoredHeader(request: ServeRequest): Record<string, string> {
  return request.ignored.length ? { "x-conductor-ignored": request.ignored.join(", ") } : {};
}

interface Answer {
  meta: ChunkMeta;
  request: ServeRequest;
  record: RunRecord;
  outcome: { status: number; error?: ApiError };
  stream: AnswerStream;
  framing: WireStream | undefined;
  wire: Wire;
  write: (text: string) => void;
}

/** The end of the exchange: the whole answer, the stream's last events, or the error. */
function answer(res: ServerResponse, a: Answer): void {
  const { meta, request, record, outcome, framing } = a;
  const trace = request.trace ? { conductor_trace: traceOf(record) } : {};
  const end = { record, trace, includeUsage: request.includeUsage };
  if (!framing) {
    if (outcome.status === 200)
      return sendJson(res, 200, a.wire.whole(meta, end), ignoredHeader(request));
    if (outcome.error)
      sendError(res, outcome.error, outcome.status === 503 ? { Connection: "close" } : {});
    return;
  }
  // The stream is open: an answer's end, or an error event as OpenAI-compatible servers send it.
  if (outcome.status === 200) {
    if (a.stream.diverged) a.write(framing.error(DIVERGED));
    else a.write(framing.done(end));
  } else if (outcome.error) a.write(framing.error(outcome.error));
  res.end();
}

const DIVERGED = apiError(
  "stream_diverged",
  "The final step was retried after part of its answer had been streamed, and the retry wrote " +
    "a different answer; the streamed text is not the answer. Retry the request.",
);
