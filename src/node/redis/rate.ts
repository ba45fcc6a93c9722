// A per-origin token bucket for worker calls (`--rate-limit RPS`): in the process, or in Redis
// (`--rate-limit-store redis://...`) so that every replica draws from one bucket per origin. The
// bucket limits calls started per second; the per-origin gate (engine/eval/limiter.ts) still
// limits calls at once. Redis down: each process goes on with a bucket of its own.
import type { ChatBackend } from "../../engine/llm/types.ts";
import { LlmError } from "../../engine/llm/types.ts";
import type { RedisLink } from "./link.ts";

/** Takes a token for `origin`: 0 when one was taken, else the milliseconds until one may be. */
export interface RateBuckets {
  take(origin: string): Promise<number>;
}

export interface RateSpec {
  /** Tokens added per second. */
  perSecond: number;
  /** Tokens a bucket holds at most (the burst); one second's worth by default. */
  burst: number;
}

/** Buckets in this process. `now` in milliseconds. */
export function memoryBuckets(spec: RateSpec, now: () => number = Date.now): RateBuckets {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(origin) {
      const t = now();
      const b = buckets.get(origin) ?? { tokens: spec.burst, at: t };
      b.tokens = Math.min(spec.burst, b.tokens + ((t - b.at) * spec.perSecond) / 1000);
      b.at = t;
      buckets.set(origin, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return Promise.resolve(0);
      }
      return Promise.resolve(Math.ceil(((1 - b.tokens) * 1000) / spec.perSecond));
    },
  };
}

/**
 * One bucket per origin in a Redis hash, refilled and taken from atomically by a script on Redis's
 * own clock (replicas' clocks need not agree). It expires a minute after it would be full again.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 60000)
return wait`;

/** The Redis key of an origin's bucket (an origin is scheme, host and port: never a key). */
export const bucketKey = (origin: string) => `conductor:rate:v1:${origin}`;

/** Buckets shared through Redis; `fallback` (this process's own) once Redis is down. */
export function redisBuckets(link: RedisLink, spec: RateSpec, fallback: RateBuckets): RateBuckets {
  return {
    async take(origin) {
      const wait = await link.run(
        (c) =>
          c.eval(TAKE, {
            keys: [bucketKey(origin)],
            arguments: [String(spec.perSecond), String(spec.burst)],
          }),
        null,
      );
      return typeof wait === "number" ? wait : fallback.take(origin);
    },
  };
}

/** Resolves after `ms`, or rejects (aborted) when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new LlmError("aborted"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** `backend` whose every call (each attempt) first takes a token of `origin`'s bucket. */
export function withRateLimit(
  backend: ChatBackend,
  buckets: RateBuckets,
  origin: string,
): ChatBackend {
  // As the per-origin gate wraps it, which sits above this one.
  return {
    label: backend.label,
    continuesAssistant: backend.continuesAssistant,
    async *stream(request, signal) {
      for (let wait = await buckets.take(origin); wait > 0; wait = await buckets.take(origin))
        await sleep(wait, signal);
      yield* backend.stream(request, signal);
    },
  };
}

/**
 * The buckets of `--rate-limit RPS [--rate-limit-store redis://...]`: in Redis when a store is
 * named (a Redis that cannot be reached at the start rejects), else this process's own.
 */
export async function openRateBuckets(
  spec: RateSpec,
  store: string | undefined,
  warn: (line: string) => void,
): Promise<{ buckets: RateBuckets; close: () => Promise<void> }> {
  const own = memoryBuckets(spec);
  if (store === undefined) return { buckets: own, close: () => Promise.resolve() };
  const { openRedis } = await import("./link.ts");
  const link = await openRedis(store, warn);
  return { buckets: redisBuckets(link, spec, own), close: () => link.close() };
}
