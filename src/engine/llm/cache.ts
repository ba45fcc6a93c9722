// The response cache: a chat backend wrapped so that an identical request (same endpoint, model,
// messages and parameters) is answered from a store instead of the provider. The store is
// pluggable (a directory of files for the CLI, memory in tests, IndexedDB in a browser); this file
// holds no platform code.
import { z } from "zod";
import { callCost } from "../cost.ts";
import type { ChatMessage, Usage } from "../schema/usage.ts";
import { ChatMessageSchema, UsageSchema } from "../schema/usage.ts";
import type { Price } from "../schema/worker.ts";
import type { CallScope, ChatBackend, ChatChunk, ChatRequest } from "./types.ts";

/**
 * `read-write` answers hits from the store and stores misses; `read-only` answers hits and never
 * writes; `refresh` never reads, calls the provider every time and overwrites what was stored.
 */
export const CacheModeSchema = z.enum(["read-write", "read-only", "refresh"]);
export type CacheMode = z.infer<typeof CacheModeSchema>;

export const CACHE_FORMAT = "conductor-studio-response";
/**
 * 2: with repeats distinct, an evaluation's calls are counted per task and place (`scope`), not
 * per session. Version 1 entries are never read (their keys hash another version, and their files
 * sit under `v1/`): a session's count could hand one answer to two tasks.
 */
export const CACHE_VERSION = 2;

/** What the key is computed from: everything that changes the answer, never a key or a header. */
export const CachedRequestSchema = z.object({
  endpoint: z.string(),
  model: z.string(),
  messages: z.array(ChatMessageSchema),
  temperature: z.number(),
  maxTokens: z.number(),
  extraBody: z.record(z.string(), z.unknown()).nullable(),
  grammar: z.string().nullable(),
  /**
   * With repeats distinct, the evaluation task the call belongs to (its result key: item,
   * strategy, repeat) and its place in the task's run (`r0.s1`, `r0.plan`); null for a call
   * without a task (serve) and whenever identical requests share one answer.
   */
  scope: z.object({ task: z.string(), site: z.string() }).nullable(),
  /**
   * Which identical request of its scope this is (0, 1, ...: a plan asked again after output that
   * did not parse), or of the session for a call without a scope, when the cache keeps repeats
   * distinct; always 0 when identical requests share one answer.
   */
  occurrence: z.number().int().nonnegative(),
});
export type CachedRequest = z.infer<typeof CachedRequestSchema>;

/** One stored response (a file of the CLI's `--cache DIR`). */
export const CachedResponseSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  version: z.literal(CACHE_VERSION),
  /** `sha256:` and 64 hex digits of the canonical request. */
  key: z.string(),
  createdAt: z.string(),
  request: CachedRequestSchema,
  response: z.object({
    text: z.string(),
    reasoning: z.string(),
    /** The usage the provider reported for the original call (never marked `cached`). */
    usage: UsageSchema,
  }),
});
export type CachedResponse = z.infer<typeof CachedResponseSchema>;

/** Where responses are kept. `get` resolves undefined for a miss (and for an unreadable entry). */
export interface CacheStore {
  get(key: string): Promise<CachedResponse | undefined>;
  put(entry: CachedResponse): Promise<void>;
  /**
   * A miss that `get` answered will not be stored (the call failed or was aborted). A store shared
   * by several processes may have claimed the key on that miss, so identical calls elsewhere wait
   * for this one: this lets them go on. Optional; never throws.
   */
  release?(key: string): void;
  /** Ends what the store holds open (a connection), so the process can exit. */
  close?(): Promise<void>;
}

/** Counters shared by every backend one cache wraps (the service's /health reads them). */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Dollars the hits would have cost at the workers' prices. */
  savedCost: number;
  /** Entries that could not be written (the call itself still succeeded). */
  writeErrors: number;
}

export function emptyCacheStats(): CacheStats {
  return { hits: 0, misses: 0, savedCost: 0, writeErrors: 0 };
}

/** Canonical JSON: object keys sorted at every depth, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The request as the cache sees it: endpoint without a trailing slash, messages role and text only. */
export function cachedRequest(
  target: { baseURL: string; model: string },
  request: ChatRequest,
): CachedRequest {
  return {
    endpoint: target.baseURL.replace(/\/+$/, ""),
    model: target.model,
    messages: request.messages.map((m: ChatMessage) => ({ role: m.role, content: m.content })),
    temperature: request.temperature,
    maxTokens: request.maxTokens,
    extraBody:
      request.extraBody && Object.keys(request.extraBody).length ? request.extraBody : null,
    grammar: request.grammar ?? null,
    scope: null,
    occurrence: 0,
  };
}

/** What a key is the SHA-256 of: canonicalJson([format, version, request]). */
function keyText(request: CachedRequest, canonical?: string): string {
  // The request's part reused when given.
  return `[${JSON.stringify(CACHE_FORMAT)},${CACHE_VERSION},${canonical ?? canonicalJson(request)}]`;
}

/** The content address of a request: SHA-256 (Web Crypto, in browsers and Node alike). */
export async function cacheKey(request: CachedRequest, canonical?: string): Promise<string> {
  const text = keyText(request, canonical);
  const bytes = new TextEncoder().encode(text);
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `sha256:${hex}`;
}

/**
 * `share`: identical requests get one answer (the reward service: GRPO's rollouts repeat subtasks
 * word for word). `distinct`: the n-th identical request gets the n-th stored answer, counted
 * within its task and place when it has a scope (an evaluation: so a resumed, repeated or new
 * evaluation makes exactly the calls a fresh one would, and no two tasks share an answer), else
 * within the session (serve). Repeats stay independent samples; a re-run costs nothing.
 */
export type CacheRepeats = "share" | "distinct";

/** One cache: a store, a mode and the counters, shared by every backend it wraps. */
export interface ResponseCache {
  store: CacheStore;
  mode: CacheMode;
  stats: CacheStats;
  /** Default `share`. */
  repeats?: CacheRepeats;
  /**
   * The SHA-256 of a text as 64 hex digits, computed at once where the platform can (Node's
   * crypto): the same key as `cacheKey`, without Web Crypto's trip through a worker thread.
   */
  sha256Hex?: (text: string) => string;
}

export interface CacheTarget {
  baseURL: string;
  model: string;
  /** For the money a hit saves. */
  price?: Price;
  now?: () => number;
}

type Answer = CachedResponse["response"];

/**
 * Identical calls in flight at once share one provider call: GRPO's rollouts of one question ask
 * the same subtasks together. Keyed per cache object.
 */
const inFlight = new WeakMap<ResponseCache, Map<string, Promise<Answer | undefined>>>();
/**
 * With `repeats: "distinct"`: how many times each request was asked so far, per cache object:
 * within the session for calls without a scope, else within their scope (a task's run: its
 * counts are freed with it).
 */
const asked = new WeakMap<
  ResponseCache,
  { session: Map<string, number>; scoped: WeakMap<CallScope, Map<string, number>> }
>();

/** The counts a request is numbered in: its scope's in `cache`, or the session's. */
function countsFor(cache: ResponseCache, scope: CallScope | undefined): Map<string, number> {
  const own = asked.get(cache) ?? { session: new Map<string, number>(), scoped: new WeakMap() };
  asked.set(cache, own);
  if (!scope) return own.session;
  const counts = own.scoped.get(scope) ?? new Map<string, number>();
  own.scoped.set(scope, counts);
  return counts;
}

/**
 * With repeats distinct: the request numbered among its identical ones (within its scope, or the
 * session's without one), and how a failed call gives its number back, so its retry keeps it.
 */
function numbered(cache: ResponseCache, request: ChatRequest, plain: CachedRequest) {
  const { scope } = request;
  const scoped = scope
    ? { ...plain, scope: { task: scope.task, site: request.site ?? "" } }
    : plain;
  const counts = countsFor(cache, scope);
  const base = canonicalJson(scoped);
  const occurrence = counts.get(base) ?? 0;
  counts.set(base, occurrence + 1);
  return {
    described: { ...scoped, occurrence },
    giveBack: () => {
      if (counts.get(base) === occurrence + 1) counts.set(base, occurrence);
    },
  };
}

function* replay(answer: Answer, savedCost: number): Generator<ChatChunk, void> {
  if (answer.reasoning) yield { type: "reasoning", text: answer.reasoning };
  if (answer.text) yield { type: "delta", text: answer.text };
  const usage: Usage = { ...answer.usage, cached: true, ...(savedCost > 0 ? { savedCost } : {}) };
  yield { type: "usage", usage };
}

/**
 * `backend` behind `cache`: a hit replays the stored text, reasoning and usage (marked `cached`,
 * so it costs nothing); a miss calls the provider, streams as usual and stores the answer once the
 * stream has finished. Failed, aborted or cut streams are never stored.
 */
export function withCache(
  backend: ChatBackend,
  cache: ResponseCache,
  target: CacheTarget,
): ChatBackend {
  const pending = inFlight.get(cache) ?? new Map<string, Promise<Answer | undefined>>();
  inFlight.set(cache, pending);
  const distinct = cache.repeats === "distinct";
  const hit = (answer: Answer) => {
    // The stored usage is the provider's (never marked cached), so this is the call's real price.
    const saved = callCost(answer.usage, target.price);
    cache.stats.hits++;
    cache.stats.savedCost += saved;
    return replay(answer, saved);
  };

  async function* stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatChunk> {
    const plain = cachedRequest(target, request);
    const { described, giveBack } = distinct
      ? numbered(cache, request, plain)
      : { described: plain, giveBack: () => undefined };
    const canonical = canonicalJson(described);
    const key = cache.sha256Hex
      ? `sha256:${cache.sha256Hex(keyText(described, canonical))}`
      : await cacheKey(described, canonical);
    if (cache.mode !== "refresh") {
      const stored = await cache.store.get(key);
      if (stored && canonicalJson(stored.request) === canonical) return yield* hit(stored.response);
      const shared = distinct ? undefined : pending.get(key);
      const answer = shared && (await shared);
      if (answer) return yield* hit(answer);
    }
    cache.stats.misses++;
    // The first caller of a key in flight owns its shared promise; later identical calls await it.
    let settle = undefined as ((a: Answer | undefined) => void) | undefined;
    if (!distinct && cache.mode !== "read-only" && !pending.has(key))
      pending.set(key, new Promise<Answer | undefined>((resolve) => (settle = resolve)));
    let text = "";
    let reasoning = "";
    let usage: Usage | undefined;
    let answer: Answer | undefined;
    try {
      for await (const chunk of backend.stream(request, signal)) {
        if (chunk.type === "delta") text += chunk.text;
        else if (chunk.type === "reasoning") reasoning += chunk.text;
        else usage = chunk.usage;
        yield chunk;
      }
      if (!signal.aborted && usage) answer = { text, reasoning, usage };
      settle?.(answer);
      if (answer && cache.mode !== "read-only") {
        const at = new Date(target.now?.() ?? Date.now()).toISOString();
        const entry: CachedResponse = {
          format: CACHE_FORMAT,
          version: CACHE_VERSION,
          key,
          createdAt: at,
          request: described,
          response: answer,
        };
        await cache.store.put(entry).catch(() => cache.stats.writeErrors++);
      }
    } finally {
      if (!answer) {
        giveBack();
        if (cache.mode !== "refresh") cache.store.release?.(key);
      }
      // Failed, aborted or abandoned: waiters make their own call.
      settle?.(undefined);
      if (settle) pending.delete(key);
    }
  }

  return restreamed(backend, stream);
}

/** `backend` with its label, context window and token counter, streaming through `stream`. */
function restreamed(backend: ChatBackend, stream: ChatBackend["stream"]): ChatBackend {
  return {
    label: backend.label,
    continuesAssistant: backend.continuesAssistant,
    ...(backend.contextWindow !== undefined ? { contextWindow: backend.contextWindow } : {}),
    ...(backend.countTokens ? { countTokens: backend.countTokens.bind(backend) } : {}),
    stream,
  };
}

/**
 * `backend` with every request tagged as a call of `scope` (an evaluation's task): a cache that
 * keeps repeats distinct counts identical requests within it. Other backends ignore the tag.
 */
export function withScope(backend: ChatBackend, scope: CallScope): ChatBackend {
  return restreamed(backend, (request, signal) => backend.stream({ ...request, scope }, signal));
}

/** A store in memory (tests, a session's studio cache before it is persisted). */
export function memoryCacheStore(): CacheStore & { entries: Map<string, CachedResponse> } {
  const entries = new Map<string, CachedResponse>();
  return {
    entries,
    get: (key) => Promise.resolve(entries.get(key)),
    put: (entry) => {
      entries.set(entry.key, entry);
      return Promise.resolve();
    },
  };
}

/** A stored entry's text read back: undefined (a miss) when it does not parse or is another key's. */
export function readCachedEntry(text: string, key: string): CachedResponse | undefined {
  try {
    const parsed = CachedResponseSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.key === key ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
