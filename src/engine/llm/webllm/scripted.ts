/**
 * A scripted stand-in for WebLLM's engine: no GPU, no download, no worker. Each request gets the
 * first scripted reply whose `when` text appears in its last message (such a reply serves every
 * request it matches), else the next reply without `when` (used once), else `defaultReply`,
 * streamed in small pieces shaped like WebLLM's chunks, then a usage chunk. It records every
 * request and the most generations that were ever in flight at once, so a test can check that
 * the backend's queue ran them one at a time. Used by the `?fake-webllm` test hook and unit tests;
 * plain TS with no test-runner import, so it also runs in the page.
 */
import type { SmallChatRequest, SmallChunk, SmallEngine } from "./backend.ts";

export interface ScriptedReply {
  /** Chosen for every request whose last message contains this text; omitted: used once, in turn. */
  when?: string;
  text: string;
}

export interface ScriptedEngineOptions {
  replies?: readonly ScriptedReply[];
  /** Characters per streamed chunk (default 6). */
  chunkSize?: number;
  /** Pause between chunks (default 0: a microtask), so that overlapping generations would show. */
  chunkDelayMs?: number;
}

export interface ScriptedEngine {
  engine: SmallEngine;
  /** Every request, in the order the engine received them. */
  readonly requests: SmallChatRequest[];
  /** Model ids passed to `reload`. */
  readonly reloads: string[];
  /** Generations running now, and the most that ever ran at once. */
  readonly active: number;
  readonly maxActive: number;
  /** Replaces the scripted replies (requests and counters stay). */
  script(replies: readonly ScriptedReply[]): void;
}

/** What a request gets when no scripted reply matches: numbered, so a test can tell calls apart. */
export const defaultReply = (n: number) => `Scripted in-browser reply ${n}.`;

const pause = (ms: number) =>
  ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve();

export function createScriptedEngine(options: ScriptedEngineOptions = {}): ScriptedEngine {
  const chunkSize = Math.max(1, options.chunkSize ?? 6);
  const delay = options.chunkDelayMs ?? 0;
  let replies = [...(options.replies ?? [])];
  const requests: SmallChatRequest[] = [];
  const reloads: string[] = [];
  let active = 0;
  let maxActive = 0;
  let interrupted = false;
  let defaults = 0;

  function replyFor(request: SmallChatRequest): string {
    const last = request.messages.at(-1)?.content ?? "";
    const rule = replies.find((r) => r.when !== undefined && last.includes(r.when));
    if (rule) return rule.text;
    const fallback = replies.findIndex((r) => r.when === undefined);
    const reply = fallback >= 0 ? replies.splice(fallback, 1)[0] : undefined;
    defaults += 1;
    return reply?.text ?? defaultReply(defaults);
  }

  async function* generate(request: SmallChatRequest, text: string): AsyncGenerator<SmallChunk> {
    active += 1;
    maxActive = Math.max(maxActive, active);
    interrupted = false; // WebLLM resets its interrupt flag when a generation starts
    let finish = "stop";
    try {
      let pieces = 0;
      for (let i = 0; i < text.length; i += chunkSize) {
        await pause(delay);
        if (interrupted) {
          finish = "abort";
          break;
        }
        pieces += 1;
        yield {
          choices: [{ delta: { content: text.slice(i, i + chunkSize) }, finish_reason: null }],
        };
      }
      yield { choices: [{ delta: {}, finish_reason: finish }] };
      const promptChars = request.messages.reduce((n, m) => n + m.content.length, 0);
      yield {
        choices: [],
        usage: {
          prompt_tokens: Math.ceil(promptChars / 4),
          completion_tokens: pieces,
          extra: { prefill_tokens_per_s: 900, decode_tokens_per_s: 40 },
        },
      };
    } finally {
      active -= 1;
    }
  }

  const engine: SmallEngine = {
    chat: {
      completions: {
        create(request) {
          requests.push(request);
          return Promise.resolve(generate(request, replyFor(request)));
        },
      },
    },
    interruptGenerate() {
      interrupted = true;
    },
    reload(modelId) {
      reloads.push(modelId);
      return Promise.resolve();
    },
    unload: () => Promise.resolve(),
    runtimeStatsText: () => Promise.resolve("prefill: 900.0 tok/s, decode: 40.0 tok/s"),
  };

  return {
    engine,
    requests,
    reloads,
    get active() {
      return active;
    },
    get maxActive() {
      return maxActive;
    },
    script(next) {
      replies = [...next];
    },
  };
}
