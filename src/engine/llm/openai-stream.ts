import type { Usage } from "../schema/usage.ts";
import { isObject } from "../schema/guards.ts";
import { streamError } from "./openai-errors.ts";
import { readWireChunk } from "./openai-wire.ts";
import type { SseFrame } from "./sse.ts";
import type { ContentPiece } from "./think.ts";
import { ThinkSplitter } from "./think.ts";
import type { ChatChunk } from "./types.ts";
import { LlmError } from "./types.ts";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Turns an OpenAI-compatible stream, frame by frame, into answer and reasoning chunks, and keeps
 * what the call needs at its end: the answer so far, whether it finished, and the last usage seen
 * (providers that repeat usage on every chunk are right in their last one).
 */
export class StreamReader {
  text = "";
  reasoning = "";
  finished = false;
  sawDone = false;
  usage: Usage | undefined;
  timingsUsage: Usage | undefined;
  private readonly think = new ThinkSplitter();

  constructor(private readonly apiKey: string | undefined) {}

  /** One SSE frame: an `event: error` frame or an `error` object fails the call with its code. */
  *frame(frame: SseFrame): Generator<ChatChunk> {
    const payload = parseJson(frame.data);
    if (frame.event === "error") {
      throw streamError(isObject(payload) ? payload : { message: frame.data }, this.apiKey);
    }
    if (payload === undefined) {
      if (!frame.data.trim()) return;
      throw new LlmError("server", `The stream held malformed JSON: ${frame.data.slice(0, 200)}`);
    }
    yield* this.payload(payload);
  }

  /** One parsed chunk (or a whole completion from a server that did not stream). */
  *payload(payload: unknown): Generator<ChatChunk> {
    const chunk = readWireChunk(payload);
    if (chunk.error) throw streamError(chunk.error, this.apiKey);
    for (const piece of chunk.pieces) {
      if (piece.type === "reasoning") yield* this.emit([{ type: "reasoning", text: piece.text }]);
      else yield* this.emit(this.think.push(piece.text));
    }
    if (chunk.finished) this.finished = true;
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.timingsUsage) this.timingsUsage = chunk.timingsUsage;
  }

  /** What the `<think>` splitter still held when the stream ended. */
  *end(): Generator<ChatChunk> {
    yield* this.emit(this.think.end());
  }

  private *emit(pieces: ContentPiece[]): Generator<ChatChunk> {
    for (const piece of pieces) {
      if (piece.type === "delta") this.text += piece.text;
      else this.reasoning += piece.text;
      yield piece;
    }
  }
}
