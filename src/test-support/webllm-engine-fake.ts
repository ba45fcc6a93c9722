/* eslint-disable @typescript-eslint/only-throw-error, @typescript-eslint/prefer-promise-reject-errors --
   WebLLM's worker rejects with strings, and the fake engine must do the same. */
import { vi } from "vitest";
import type { ChatMessage } from "../engine/schema/usage.ts";
import type { ChatChunk } from "../engine/llm/types.ts";
import { LlmError } from "../engine/llm/types.ts";
import type {
  SmallChatRequest,
  SmallChunk,
  SmallEngine,
  SmallUsage,
} from "../engine/llm/webllm/backend.ts";
import { createWebLLMBackend } from "../engine/llm/webllm/backend.ts";

/** A fake of the small WebLLM engine interface, and helpers shared by the backend tests. */

export interface Reply {
  chunks?: string[];
  usage?: SmallUsage | null;
  /** Held before the first chunk (a long prefill) until resolved. */
  gate?: Promise<void>;
  /** Thrown (as a string, like the worker) after this many chunks. */
  failAfter?: number;
  failWith?: string;
  /** Rejects `create` itself with this string. */
  rejectCreate?: string;
}

export const MODEL = "Qwen2.5-7B-Instruct-q4f16_1-MLC";
export const USAGE: SmallUsage = {
  prompt_tokens: 120,
  completion_tokens: 3,
  extra: {
    prefill_tokens_per_s: 850.5,
    decode_tokens_per_s: 31.2,
    time_to_first_token_s: 0.14,
    e2e_latency_s: 0.3,
  },
};

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A fake of the small engine whose chunks are shaped like WebLLM's. */
export function fakeEngine(replies: Reply[]) {
  const calls: SmallChatRequest[] = [];
  const state = { interrupts: 0, active: 0, maxActive: 0, closed: 0, interruptFlag: false };
  const reload = vi.fn((_id: string) => Promise.resolve());
  const unload = vi.fn(() => Promise.resolve());

  async function* generate(reply: Reply): AsyncGenerator<SmallChunk> {
    state.active += 1;
    state.maxActive = Math.max(state.maxActive, state.active);
    state.interruptFlag = false; // WebLLM resets its interrupt flag when a generation starts
    try {
      if (reply.gate) await reply.gate;
      let finish = "stop";
      for (const [i, text] of (reply.chunks ?? []).entries()) {
        if (reply.failAfter === i) throw reply.failWith ?? "Error: boom";
        if (state.interruptFlag) {
          finish = "abort";
          break;
        }
        // Shaped like WebLLM's chunk, extra fields included (a variable skips excess-property checks).
        const chunk = {
          id: "chatcmpl-1",
          object: "chat.completion.chunk",
          model: MODEL,
          choices: [{ delta: { content: text, role: "assistant" }, finish_reason: null, index: 0 }],
        };
        yield chunk;
      }
      if (reply.failAfter !== undefined && reply.failAfter >= (reply.chunks ?? []).length) {
        throw reply.failWith ?? "Error: boom";
      }
      yield { choices: [{ delta: {}, finish_reason: finish }] };
      const usageChunk = {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        choices: [],
        usage: reply.usage ?? USAGE,
      };
      if (reply.usage !== null) yield usageChunk;
    } finally {
      state.active -= 1;
      state.closed += 1;
    }
  }

  const engine: SmallEngine = {
    chat: {
      completions: {
        create(request) {
          calls.push(request);
          const reply = replies.shift() ?? { chunks: ["ok"] };
          if (reply.rejectCreate) return Promise.reject(reply.rejectCreate);
          return Promise.resolve(generate(reply));
        },
      },
    },
    interruptGenerate() {
      state.interrupts += 1;
      state.interruptFlag = true;
    },
    reload,
    unload,
    runtimeStatsText: () => Promise.resolve("prefill: 850.5 tok/s, decode: 31.2 tok/s"),
  };
  return { engine, calls, state, reload, unload };
}

/** The backend over a fresh fake engine with these replies, for MODEL, with the fake's handles. */
export function fakeBackend(replies: Reply[]) {
  const fake = fakeEngine(replies);
  return { ...fake, backend: createWebLLMBackend(fake.engine, { modelId: MODEL }) };
}

export const user = (content: string): ChatMessage[] => [
  { role: "system", content: "You coordinate." },
  { role: "user", content },
];
export const request = (content = "Q?") => ({
  messages: user(content),
  temperature: 0.2,
  maxTokens: 1024,
});

export async function drain(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const out: ChatChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

export async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (e: unknown) {
    if (e instanceof LlmError) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

/** Lets queued promise callbacks run. */
export const tick = () => new Promise((r) => setTimeout(r, 0));
