// `POST /v1/chat/completions` for `serve`: admit, run, answer (whole or streamed), record.
import type { ServerResponse } from "node:http";
import { newRunId } from "../engine/exec/run.ts";
import type { Attributes } from "../engine/otel/span.ts";
import type { RunRecord } from "../engine/schema/record.ts";
import type { ServeEngine } from "./serve-engine.ts";
import { failureOf, runQuestion } from "./serve-engine.ts";
import type { ApiError } from "./serve-errors.ts";
import { apiError, errorBody } from "./serve-errors.ts";
import type { RunLog } from "./serve-log.ts";
import { runLine } from "./serve-log.ts";
import type { RunQueue } from "./serve-queue.ts";
import { sendError, sendJson } from "./serve-reply.ts";
import type { ServeRequest } from "./serve-request.ts";
import type { ChunkMeta } from "./serve-sse.ts";
import { AnswerStream, SSE_DONE, SSE_HEADERS, deltaChunk, sseChunk } from "./serve-sse.ts";
import { traceOf, usageOf } from "./serve-trace.ts";

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
}

const SHUTDOWN_ERROR = apiError(
  503,
  "server_shutdown",
  "The server is shutting down; the run was cancelled. Retry against another replica.",
);

/** Where the run left the client: the HTTP status, and what to send if nothing has been yet. */
function outcomeOf(record: RunRecord, run: AbortSignal): { status: number; error?: ApiError } {
  if (record.status === "done") return { status: 200 };
  if (record.status === "cancelled") {
    return run.reason === SHUTDOWN ? { status: 503, error: SHUTDOWN_ERROR } : { status: 499 };
  }
  const f = failureOf(record);
  return { status: 502, error: apiError(502, f.code, f.message) };
}

/** Answers one validated chat request. Never throws on model failures; they become answers. */
export async function handleChat(
  ctx: ChatContext,
  res: ServerResponse,
  request: ServeRequest,
  requestId: string,
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
        apiError(429, "queue_full", "Too many requests are waiting; retry shortly.", null),
        { "Retry-After": "1" },
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
    id: `chatcmpl-${runId}`,
    created: Math.floor(received.getTime() / 1000),
    model: ctx.model,
  };
  const stream = new AnswerStream(ctx.engine.resolved.config.rounds);
  const send = (text: string) => {
    if (res.destroyed) return;
    if (!res.headersSent) {
      res.writeHead(200, SSE_HEADERS);
      res.write(deltaChunk(meta, { role: "assistant", content: "" }));
    }
    if (text) res.write(deltaChunk(meta, { content: text }));
  };
  let record: RunRecord;
  try {
    record = await runQuestion(ctx.engine, {
      question: request.question,
      context: request.context,
      runId,
      signal: run.signal,
      onEvent: request.stream
        ? (e) => {
            const text = stream.next(e);
            if (text) send(text);
          }
        : undefined,
    });
  } finally {
    admission.release();
    untrack();
    gone.signal.removeEventListener("abort", onGone);
  }
  const outcome = outcomeOf(record, run.signal);
  const clientGone = gone.signal.aborted;
  const status = clientGone ? 499 : outcome.status;
  // Recorded before answering: a client holding an answer can count on its record being on disk.
  try {
    await ctx.runLog?.append(record, {
      request_id: requestId,
      received_at: received.toISOString(),
      stream: request.stream,
      http_status: status,
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
  if (!clientGone) answer(res, { meta, request, record, outcome, stream, send });
  ctx.log(runLine(requestId, status, record, Date.now() - received.getTime()));
}

interface Answer {
  meta: ChunkMeta;
  request: ServeRequest;
  record: RunRecord;
  outcome: { status: number; error?: ApiError };
  stream: AnswerStream;
  /** Sends streamed text, opening the stream first if it is not open yet. */
  send: (text: string) => void;
}

/** The end of the exchange: the completion, the stream's last chunks, or the error. */
function answer(res: ServerResponse, a: Answer): void {
  const { meta, request, record, outcome } = a;
  const trace = request.trace ? { conductor_trace: traceOf(record) } : {};
  if (outcome.status === 200 && !request.stream) {
    return sendJson(res, 200, {
      id: meta.id,
      object: "chat.completion",
      created: meta.created,
      model: meta.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: record.answer ?? "" },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: usageOf(record),
      ...trace,
    });
  }
  if (outcome.status === 200) {
    a.send("");
    if (a.stream.diverged) res.write(`data: ${errorBody(DIVERGED)}\n\n`);
    else {
      res.write(sseChunk(meta, [{ index: 0, delta: {}, finish_reason: "stop" }], trace));
      if (request.includeUsage) res.write(sseChunk(meta, [], { usage: usageOf(record) }));
    }
    return void res.end(SSE_DONE);
  }
  if (!outcome.error) return;
  if (res.headersSent) {
    // A stream already under way: the error travels as an SSE event, as OpenAI-compatible servers do.
    res.write(`data: ${errorBody(outcome.error)}\n\n`);
    return void res.end(SSE_DONE);
  }
  sendError(res, outcome.error, outcome.status === 503 ? { Connection: "close" } : {});
}

const DIVERGED = apiError(
  502,
  "stream_diverged",
  "The final step was retried after part of its answer had been streamed, and the retry wrote " +
    "a different answer; the streamed text is not the answer. Retry the request.",
);
