// Streaming for `serve`: which run text reaches the client as it comes, and the OpenAI SSE framing.
import type { RunEvent } from "../../engine/schema/events.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { ApiError } from "./error-replies.ts";
import { errorBody } from "./error-replies.ts";
import { usageOf } from "./trace.ts";

/**
 * Picks, from a run's events, the text of the answer as it streams. Only the last step of the last
 * possible round is certain to be the answer, so its tokens go out live; an earlier round's answer
 * (the Conductor accepted it) or a fallback answer goes out whole at the end. What has been sent
 * stays sent: a retried final step continues the stream only while its new text agrees with it,
 * and `diverged` tells the caller when the sent text can no longer become the answer.
 */
export class AnswerStream {
  private sent = "";
  private current = "";
  private finalStep: number | null = null;
  diverged = false;

  constructor(private readonly lastRound: number) {}

  /** The text to send now for `e` ("" for none). */
  next(e: RunEvent): string {
    switch (e.type) {
      case "round_start":
        if (!e.parent && e.round === this.lastRound) this.finalStep = e.steps.length - 1;
        return "";
      case "step_start":
        if (this.isFinal(e)) this.current = "";
        return "";
      case "step_delta":
        if (!this.isFinal(e)) return "";
        this.current += e.text;
        return this.advance();
      case "step_finish":
        if (!this.isFinal(e)) return "";
        this.current = e.output;
        return this.advance();
      case "run_finish":
        if (e.status !== "done" || e.answer === null) return "";
        this.current = e.answer;
        return this.advance();
      case "run_start":
      case "plan_start":
      case "plan_delta":
      case "plan_reasoning":
      case "plan_retry":
      case "plan_finish":
      case "step_queued":
      case "step_reasoning":
      case "step_retry":
      case "step_error":
      case "step_cancel":
      case "step_skip":
      case "round_finish":
        return "";
    }
  }

  /** Everything sent so far. */
  get text(): string {
    return this.sent;
  }

  private isFinal(e: { parent?: unknown; round: number; step: number }): boolean {
    return !e.parent && e.round === this.lastRound && e.step === this.finalStep;
  }

  private advance(): string {
    if (this.diverged) return "";
    const agrees =
      this.current.length <= this.sent.length
        ? this.sent.startsWith(this.current)
        : this.current.startsWith(this.sent);
    if (!agrees) {
      this.diverged = true;
      return "";
    }
    if (this.current.length <= this.sent.length) return "";
    const more = this.current.slice(this.sent.length);
    this.sent = this.current;
    return more;
  }
}

export interface ChunkMeta {
  id: string;
  created: number;
  model: string;
}

/** One `data:` line of an OpenAI `chat.completion.chunk`. */
export function sseChunk(
  meta: ChunkMeta,
  choices: unknown[],
  extra: Record<string, unknown> = {},
): string {
  return `data: ${JSON.stringify({ id: meta.id, object: "chat.completion.chunk", created: meta.created, model: meta.model, choices, ...extra })}\n\n`;
}

/** A chunk carrying one content delta (or the role, on the first). */
export function deltaChunk(meta: ChunkMeta, delta: Record<string, string>): string {
  return sseChunk(meta, [{ index: 0, delta, finish_reason: null }]);
}

export const SSE_DONE = "data: [DONE]\n\n";

/** An SSE comment: ignored by every client, it keeps proxies and idle time-outs from cutting in. */
export const SSE_KEEPALIVE = ": keep-alive\n\n";

/** What the end of an answer carries besides its text. */
export interface AnswerEnd {
  record: RunRecord;
  /** The `conductor_trace` field, when the request asked for it (else {}). */
  trace: Record<string, unknown>;
  includeUsage: boolean;
}

/** One streamed answer's framing: its opening, its text deltas and how it ends. */
export interface WireStream {
  open(): string;
  delta(text: string): string;
  done(end: AnswerEnd): string;
  /** The error event of a stream already under way (an HTTP status can no longer be sent). */
  error(e: ApiError): string;
}

/** How one API shapes an answer: whole (JSON) or streamed (SSE). */
export interface Wire {
  /** The prefix of the answer's id (`chatcmpl`, `resp`). */
  prefix: string;
  whole(meta: ChunkMeta, end: AnswerEnd): unknown;
  stream(meta: ChunkMeta): WireStream;
}

/** `POST /v1/chat/completions`: a `chat.completion`, or `chat.completion.chunk` events and [DONE]. */
export const chatWire: Wire = {
  prefix: "chatcmpl",
  whole: (meta, { record, trace }) => ({
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
  }),
  stream: (meta) => ({
    open: () => deltaChunk(meta, { role: "assistant", content: "" }),
    delta: (text) => deltaChunk(meta, { content: text }),
    done: ({ record, trace, includeUsage }) =>
      sseChunk(meta, [{ index: 0, delta: {}, finish_reason: "stop" }], trace) +
      (includeUsage ? sseChunk(meta, [], { usage: usageOf(record) }) : "") +
      SSE_DONE,
    error: (e) => `data: ${errorBody(e)}\n\n${SSE_DONE}`,
  }),
};

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  // Proxies such as nginx would otherwise buffer the stream.
  "X-Accel-Buffering": "no",
} as const;
