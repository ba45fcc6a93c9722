// The engine side of `reward`: the pool's backends behind per-origin gates and the response cache,
// the graders by id (code in the Pyodide sandbox), and a batch scored concurrently.
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { OriginLimiter, originOf } from "../../engine/eval/limiter.ts";
import { scorerKind } from "../../engine/eval/scorers/kinds.ts";
import { createScorer } from "../../engine/eval/scorers/registry.ts";
import type { Scorer } from "../../engine/eval/scorers/types.ts";
import type { RewardScheme } from "../../engine/eval/training/reward.ts";
import type { ResponseCache } from "../../engine/llm/cache.ts";
import { withCache } from "../../engine/llm/cache.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { ResolvedConfig } from "../config.ts";
import type { RewardItem, RewardRequest, RewardResult } from "./request.ts";
import type { RewardEngine } from "./score.ts";
import { rewardItem } from "./score.ts";
import { createEngine } from "../kit/engine.ts";
import type { RateBuckets } from "../../node/redis/rate.ts";
import { withRateLimit } from "../../node/redis/rate.ts";

/** Resolves in the event loop's next turn, after the I/O that is ready. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Built-in graders that score with nothing but CPU (no call, no sandbox): safe to warm. */
const LOCAL_SCORERS = new Set(["math", "mc", "exact", "contains", "regex"]);

export interface RewardTotals {
  batches: number;
  items: number;
  rewarded: number;
  errors: number;
  workerCalls: number;
  cost: number;
}

export interface RewardRuntime {
  engine: RewardEngine;
  limiter: OriginLimiter;
  cache: ResponseCache | undefined;
  totals: RewardTotals;
  /** Scores every item of a batch at once (the gates bound the calls); results in request order. */
  scoreBatch(
    request: RewardRequest,
    reward: RewardScheme,
    signal: AbortSignal,
    onRecord?: (record: RunRecord, result: RewardResult) => void,
  ): Promise<RewardResult[]>;
  /**
   * Loads what the default scorer loads on first use (math: the compute engine, a third of a
   * second of CPU), so the first batch of a training run does not pay for it. Only the built-in
   * graders that compute locally: a judge would make a paid call, code would start a sandbox.
   * Never fails.
   */
  warm(): Promise<void>;
  /** Stops the Python sandbox, if one was started. */
  dispose(): Promise<void>;
}

/**
 * Backends as `run` and `serve` build them (createEngine), each call holding a slot of its
 * origin's gate (`concurrency` at once), the cache in front so a hit takes no slot.
 */
export function createRewardRuntime(
  resolved: ResolvedConfig,
  o: {
    concurrency: number;
    scorer: string;
    /** The math scorer's grader profile (other scorers have none). */
    profile?: string | undefined;
    cache?: ResponseCache;
    /** Each worker call (each attempt) takes a token of its origin first (--rate-limit). */
    rate?: RateBuckets;
    codeSandbox?: () => Promise<Sandbox>;
  },
): RewardRuntime {
  const base = createEngine(resolved);
  const limiter = new OriginLimiter(o.concurrency);
  const front = (b: ChatBackend, target: Pick<Worker, "kind" | "baseURL" | "model" | "price">) => {
    const origin = originOf(target);
    const gated = limiter.wrap(o.rate ? withRateLimit(b, o.rate, origin) : b, origin);
    return o.cache ? withCache(gated, o.cache, target) : gated;
  };
  const workers = new Map(resolved.pool.map((w) => [w.id, front(base.backendFor(w), w)]));
  const conductorBackend = front(base.conductorBackend, resolved.conductor);
  let sandbox: Promise<Sandbox> | undefined;
  const scorers = new Map<string, Scorer | string>();
  const scorer = (id: string): Scorer | string => {
    let made = scorers.get(id);
    if (made === undefined) {
      const built = createScorer(
        {
          id,
          options: {},
          ...(scorerKind(id).takesProfile && o.profile ? { profile: o.profile } : {}),
        },
        o.codeSandbox ? { codeSandbox: () => (sandbox ??= o.codeSandbox!()) } : {},
      );
      made = built.ok ? built.scorer : built.message;
      scorers.set(id, made);
    }
    return made;
  };
  const { config } = resolved;
  const engine: RewardEngine = {
    pool: resolved.pool,
    conductor: resolved.conductor,
    conductorBackend,
    backendFor: (w) => workers.get(w.id) ?? conductorBackend,
    maxSteps: config.maxSteps,
    maxCalls: config.maxCalls,
    retry: { ...config.retry, ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}) },
    namedWorkers: config.namedWorkers,
    scorer,
    defaultScorer: o.scorer,
  };
  const totals: RewardTotals = {
    batches: 0,
    items: 0,
    rewarded: 0,
    errors: 0,
    workerCalls: 0,
    cost: 0,
  };
  return {
    engine,
    limiter,
    cache: o.cache,
    totals,
    async scoreBatch(request, reward, signal, onRecord) {
      totals.batches++;
      const scoreOne = async (item: RewardItem) => {
        let record: RunRecord | undefined;
        // A signal per item: each run's calls listen to their own, not all to the batch's.
        const own = AbortSignal.any([signal]);
        const result = await rewardItem(engine, item, reward, own, (r) => (record = r));
        totals.items++;
        if (result.reward === null) totals.errors++;
        else totals.rewarded++;
        totals.workerCalls += result.calls - result.cached_calls;
        totals.cost += result.cost;
        if (record) onRecord?.(record, result);
        return result;
      };
      // Each item starts in a turn of the event loop of its own: the first items' worker calls go
      // out while the later ones are still parsed and planned, instead of after all of them.
      const results: Promise<RewardResult>[] = [];
      for (const item of request.items) {
        if (results.length > 0) await nextTurn();
        const result = scoreOne(item);
        // Seen at once, so a failure is not unhandled while later items start; Promise.all has it.
        result.catch(() => undefined);
        results.push(result);
      }
      return Promise.all(results);
    },
    async warm() {
      const made = scorer(o.scorer);
      if (typeof made === "string" || !LOCAL_SCORERS.has(made.id)) return;
      const sample = { question: "1 + 1", expected: "2" };
      await made.score("Answer: 2", sample, new AbortController().signal).catch(() => undefined);
    },
    async dispose() {
      (await sandbox?.catch(() => undefined))?.dispose();
    },
  };
}
