import type { Usage } from "../../../engine/schema/usage.ts";
import type { ChatBackend, ChatChunk, ChatRequest } from "../../../engine/llm/types.ts";
import { LlmError } from "../../../engine/llm/types.ts";
import { sleep } from "../../../engine/exec/retry.ts";

/** One scripted answer of the fake backend. */
export interface FakeReply {
  text?: string;
  /** Explicit chunking of the streamed text; defaults to one chunk per word. */
  chunks?: string[];
  /** Reasoning streamed before the text, one chunk each (kept apart from the answer). */
  reasoning?: string[];
  /** Thrown instead of answering, or after `failAfterChunks` chunks (a dropped stream). */
  error?: LlmError;
  failAfterChunks?: number;
  /** Usage to report; `null` reports none (the caller must estimate). Default: a simple count. */
  usage?: Usage | null;
  /** Waited on before the first chunk: lets a test hold a call open without sleeping. */
  gate?: Promise<void>;
  /** Milliseconds before the first chunk (benchmarks use real latencies; tests use gates). */
  delayMs?: number;
  /** Milliseconds between chunks. */
  chunkDelayMs?: number;
}

export interface FakeBackend extends ChatBackend {
  /** Every request received, in order. */
  readonly calls: ChatRequest[];
}

type Script = FakeReply[] | ((request: ChatRequest, call: number) => FakeReply);

function untilAborted(gate: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new LlmError("aborted"));
    signal.addEventListener("abort", () => reject(new LlmError("aborted")), { once: true });
    gate.then(resolve, reject);
  });
}

/**
 * A scripted chat backend for unit tests and benchmarks: answers from a list (one reply per call,
 * the last one repeating) or a function of the request, honours abort, and records every request.
 */
export function createFakeBackend(
  script: Script,
  options: { label?: string; continuesAssistant?: boolean } = {},
): FakeBackend {
  const calls: ChatRequest[] = [];
  return {
    label: options.label ?? "fake",
    continuesAssistant: options.continuesAssistant ?? true,
    calls,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatChunk> {
      const n = calls.push(request) - 1;
      const reply = Array.isArray(script)
        ? script[Math.min(n, script.length - 1)]
        : script(request, n);
      if (!reply) throw new Error("fake backend: empty script");
      if (reply.gate) await untilAborted(reply.gate, signal);
      if (reply.delayMs) await sleep(reply.delayMs, signal);
      if (reply.error && reply.failAfterChunks === undefined) throw reply.error;
      for (const piece of reply.reasoning ?? []) {
        if (signal.aborted) throw new LlmError("aborted");
        yield { type: "reasoning", text: piece };
      }
      const text = reply.text ?? "";
      const chunks = reply.chunks ?? text.split(/(?<= )/);
      for (const [i, chunk] of chunks.entries()) {
        if (reply.error && i === reply.failAfterChunks) throw reply.error;
        if (signal.aborted) throw new LlmError("aborted");
        if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs, signal);
        if (chunk) yield { type: "delta", text: chunk };
      }
      if (reply.error) throw reply.error;
      if (reply.usage === null) return;
      const prompt = request.messages.reduce((t, m) => t + m.content.length, 0);
      yield {
        type: "usage",
        usage: reply.usage ?? {
          promptTokens: Math.ceil(prompt / 4),
          completionTokens: Math.ceil(text.length / 4),
          estimated: false,
        },
      };
    },
  };
}
