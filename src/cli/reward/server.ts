// `conductor-studio reward`: an HTTP service that RL trainers call to score sampled Conductor
// completions by running them on the pool (docs/training.md, "The reward service").
import { readFile } from "node:fs/promises";
import type { Sandbox } from "../../engine/eval/code/pool.ts";
import { formatCost } from "../../engine/cost.ts";
import { describeReward, formatBonusReward } from "../../engine/eval/training/reward.ts";
import { cacheLine, isRedisUrl, openResponseCache } from "../cache-store.ts";
import type { CliCommand, Io } from "../command.ts";
import type { ResolvedConfig } from "../config.ts";
import { resolveConfig } from "../config.ts";
import type { RewardSettings } from "./args.ts";
import { parseRewardArgs } from "./args.ts";
import { createRewardRuntime } from "./engine.ts";
import { createRewardServer } from "./http.ts";
import type { RunningService } from "../serve/lifecycle.ts";
import { ServiceLife, untilStopped } from "../serve/lifecycle.ts";
import type { RewardResult } from "./request.ts";
import type { RunLog } from "../serve/log.ts";
import { openRunLog } from "../serve/log.ts";
import { RunQueue } from "../serve/request-queue.ts";
import { OTLP_PROTOCOL_HELP, OtlpExporter } from "../otlp-export.ts";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { openRateBuckets } from "../../node/redis/rate.ts";
import { redisWhere } from "../../node/redis/where.ts";

export type RunningReward = RunningService;

/** The same confined sandbox as `eval`'s: an answer under RL training is the adversary. */
const nodeSandbox = (unconfined: boolean) => (): Promise<Sandbox> =>
  import("../../node/sandbox/process.ts").then(({ createNodeSandbox }) =>
    createNodeSandbox({ unconfined }),
  );

function batchLine(id: string, rewards: RewardResult[], ms: number): string {
  const scored = rewards.filter((r) => r.reward !== null);
  const mean = scored.length ? scored.reduce((t, r) => t + (r.reward ?? 0), 0) / scored.length : 0;
  const calls = rewards.reduce((t, r) => t + r.calls, 0);
  const cached = rewards.reduce((t, r) => t + r.cached_calls, 0);
  const cost = rewards.reduce((t, r) => t + r.cost, 0);
  const errors = rewards.length - scored.length;
  return (
    `${id} 200 ${rewards.length} items, mean reward ${mean.toFixed(3)}, ${errors} errors, ` +
    `${calls} worker calls (${cached} cached) ${formatCost(cost)} ${(ms / 1000).toFixed(2)}s`
  );
}

/** Starts the service; the in-process entry that the CLI, the tests and the bench share. */
export async function startReward(
  settings: RewardSettings,
  resolved: ResolvedConfig,
  log: (line: string) => void,
): Promise<RunningReward> {
  const runLog: RunLog | undefined = settings.runs ? await openRunLog(settings.runs) : undefined;
  const otlp = settings.otlp
    ? new OtlpExporter(settings.otlp, (line) => log(`otel: ${line}`))
    : undefined;
  const cache = await openResponseCache(settings.cache?.dir, settings.cache?.mode, "share", log);
  const rate = settings.rateLimit
    ? await openRateBuckets(
        {
          perSecond: settings.rateLimit.perSecond,
          burst: Math.max(1, settings.rateLimit.perSecond),
        },
        settings.rateLimit.store,
        log,
      )
    : undefined;
  const runtime = createRewardRuntime(resolved, {
    concurrency: settings.concurrency,
    scorer: settings.scorer,
    profile: settings.profile,
    cache,
    ...(rate ? { rate: rate.buckets } : {}),
    codeSandbox: nodeSandbox(settings.unconfinedCode ?? false),
  });
  await runtime.warm();
  const queue = new RunQueue(settings.batches, settings.queue);
  const life = new ServiceLife();
  const server = createRewardServer(
    {
      apiKey: settings.apiKey,
      guard: { bind: settings.host, allowedHosts: settings.allowedHosts, cors: settings.cors },
      maxBodyBytes: settings.maxBodyBytes,
      queue,
      draining: life.draining,
      log,
      track: life.track,
      health: () => ({
        batches_scored: runtime.totals.batches,
        items_scored: runtime.totals.items,
        item_errors: runtime.totals.errors,
        worker_calls: runtime.totals.workerCalls,
        cost: runtime.totals.cost,
        origin_limits: runtime.limiter.limits(),
        cache: cache
          ? {
              mode: cache.mode,
              hits: cache.stats.hits,
              misses: cache.stats.misses,
              saved_cost: cache.stats.savedCost,
              write_errors: cache.stats.writeErrors,
            }
          : null,
      }),
      score: async (request, signal, id) => {
        const started = Date.now();
        const receivedAt = new Date(started).toISOString();
        const appends: Promise<void>[] = [];
        const rewards = await runtime.scoreBatch(
          request,
          request.format_bonus === undefined
            ? settings.reward
            : formatBonusReward(request.format_bonus),
          signal,
          (record, result) => {
            otlp?.add(record, {
              "conductor.reward.item": result.id,
              ...(result.reward === null ? {} : { "conductor.reward": result.reward }),
            });
            if (!runLog) return;
            const meta = {
              request_id: id,
              received_at: receivedAt,
              stream: false,
              http_status: 200,
              error_code: result.error?.code ?? null,
              client_disconnected: signal.aborted,
              reward: {
                id: result.id,
                reward: result.reward,
                correct: result.correct,
                error: result.error,
              },
            };
            appends.push(
              runLog.append(record, meta).catch((e: unknown) => {
                log(
                  `${id} cannot write the run log: ${e instanceof Error ? e.message : String(e)}`,
                );
              }),
            );
          },
        );
        await Promise.all(appends);
        log(batchLine(id, rewards, Date.now() - started));
        if (cache) log(`${id} ${cacheLine(cache)}`);
        return rewards;
      },
    },
    life.inFlight,
  );
  return life.start(server, settings.port, settings.host, {
    queue,
    graceMs: settings.graceMs,
    release: async () => {
      await runLog?.close();
      await otlp?.close();
      await runtime.dispose();
      await cache?.store.close?.();
      await rate?.close();
    },
  });
}

export const REWARD_HELP = `Serve rewards for RL trainers: run each sampled Conductor plan on the pool and score it.

Usage: conductor-studio reward --config FILE [options]

Options:
  --config FILE          the Conductor and the workers (JSON; required)
  --host HOST            address to bind (default 127.0.0.1); anything but loopback needs --api-key-env
  --port N               port (default 8090; 0 picks a free one)
  --concurrency N        worker calls at once per endpoint origin (default 16)
  --scorer ID            scorer for items that name none (default math)
  --profile NAME         the math scorer's grader profile (default, math-verify, qwen-math, minerva, strict)
  --format-bonus B       reward a parsed plan correctness + B (0 <= B <= 1), not the paper's 0.5 / 1
  --api-key-env NAME     the environment variable holding the key clients must send
  --cors ORIGIN          allow a browser origin ("*" for any; repeatable); others are refused (403)
  --allowed-host NAME    also answer a Host of NAME (a proxy); on loopback only localhost,
                         127.0.0.1 and [::1] are answered (403 otherwise)
  --runs DIR             append each run record, with its reward, as a JSON line
  --cache DIR            answer identical worker requests from DIR at no cost; DIR may be
                         redis://HOST:PORT/DB, shared by every replica (identical calls in
                         flight on several replicas are made once)
  --cache-mode MODE      read-write (default), read-only or refresh, for --cache
  --rate-limit RPS       worker calls started per second per endpoint origin (a token bucket)
  --rate-limit-store URL redis://HOST:PORT/DB: one bucket per origin for every replica
  --batches N            batches scored at once (default 8)
  --queue N              batches that may wait beyond them (default 64; then 429)
  --max-body-bytes N     largest request body (default 64 MiB; then 413)
  --grace-ms N           on Ctrl+C, how long batches in flight may finish (default 30000)
  --otlp-endpoint URL    send each item's run as an OpenTelemetry trace (see conductor-studio otel)
  --otlp-headers-env VAR a variable holding the collector's headers as k=v,k2=v2
  --otlp-content         add prompts and answers to the traces (off by default)
${OTLP_PROTOCOL_HELP}
  --unconfined-code      score code answers where the sandbox cannot confine them, accepting that risk

Endpoints:
  POST /v1/rewards  {"items":[{"id","question","completion","reference","scorer"?,"pool"?}]}
                    answers {"rewards":[{"id","reward","correct","format_ok","answer","error",
                    "run_id","cost","calls"}]} in request order
  GET /health       items, calls, cache hits and misses, money saved

Reward 0 for a plan that does not parse (or names a worker outside the item's pool), 0.5
parsed and wrong, 1 right (the paper's; with --format-bonus B, or "format_bonus": B in a request,
B and 1 + B, as eval --reward format_bonus:B); a failed worker call is an error with reward null,
never 0. Keys never reach the log, the records or the cache.

${exitCodesHelp({
  [EXIT.ok]: "stopped after Ctrl+C (SIGINT or SIGTERM)",
  [EXIT.failed]: "cannot listen on --host:--port",
  [EXIT.usage]: "usage error or an invalid config",
})}
Examples:
  conductor-studio reward --config pool.json --cache .reward-cache --runs runs/
  conductor-studio reward --config pool.json --port 8090 --concurrency 16 --scorer math
`;

async function rewardRun(args: string[], io: Io): Promise<number> {
  const settings = parseRewardArgs(args, io.env);
  let text: string;
  try {
    text = await readFile(settings.config, "utf8");
  } catch (e: unknown) {
    const why = e instanceof Error ? e.message : String(e);
    io.stderr(`Cannot read the config file ${settings.config}: ${why}\n`);
    return 2;
  }
  const resolved = resolveConfig(text, io.env, "training");
  if (!resolved.ok) {
    io.stderr(`${resolved.message}\n`);
    return 2;
  }
  const log = (line: string) => io.stderr(`[reward] ${line}\n`);
  // Code items can come in any batch: where they could not be confined, say so before serving.
  const { nodeSandboxRefusal } = await import("../../node/sandbox/process.ts");
  const refusal = nodeSandboxRefusal(settings.unconfinedCode ?? false);
  if (refusal) log(`${refusal} Code items get no reward until then.`);
  let running: RunningReward;
  try {
    running = await startReward(settings, resolved, log);
  } catch (e: unknown) {
    const why = e instanceof Error ? e.message : String(e);
    io.stderr(`Cannot serve rewards on ${settings.host}:${settings.port}: ${why}\n`);
    return 1;
  }
  const keyNote = settings.apiKeyEnv ? `server key from $${settings.apiKeyEnv}` : "no server key";
  const dir = settings.cache?.dir ?? "";
  const cacheNote = settings.cache
    ? `, cache ${isRedisUrl(dir) ? redisWhere(dir) : dir} (${settings.cache.mode})`
    : "";
  const rateNote = settings.rateLimit
    ? `, ${settings.rateLimit.perSecond} calls/s per origin${settings.rateLimit.store ? ` shared in ${redisWhere(settings.rateLimit.store)}` : ""}`
    : "";
  log(
    `listening on ${running.url}/v1/rewards (${resolved.pool.length} workers, concurrency ` +
      `${settings.concurrency} per origin, scorer ${settings.scorer}, reward ` +
      `${describeReward(settings.reward)}, ${keyNote}${cacheNote}${rateNote}${settings.runs ? `, runs to ${settings.runs}` : ""})`,
  );
  await untilStopped(
    running,
    log,
    (signal) =>
      `${signal}: no new batches; waiting up to ${(settings.graceMs / 1000).toFixed(1)}s (again to cancel)`,
  );
  return 0;
}

export const rewardCommand: CliCommand = {
  name: "reward",
  summary: "serve rewards for RL trainers: run sampled Conductor plans on the pool and score them",
  help: REWARD_HELP,
  run: rewardRun,
};
