// `conductor-studio reward` options: parsed, checked, and turned into settings (or a UsageError).
import { MathProfileSchema } from "../../engine/eval/scorers/math-profiles.ts";
import { parseArgs } from "node:util";
import type { CacheMode } from "../../engine/llm/cache.ts";
import type { RewardScheme } from "../../engine/eval/training/reward.ts";
import { PAPER_REWARD, parseRewardOption } from "../../engine/eval/training/reward.ts";
import { UsageError } from "../command.ts";
import type { OtlpTarget } from "../otlp-export.ts";
import { readOtlpOptions } from "../otlp-export.ts";
import {
  SERVICE_OPTIONS,
  cacheOption,
  integerOption as integer,
  serverKey,
} from "../serve/options.ts";

export interface RewardSettings {
  config: string;
  host: string;
  port: number;
  /** Worker calls at once per endpoint origin (the engine's per-origin gate). */
  concurrency: number;
  /** Scorer for items that name none (default: math). */
  scorer: string;
  /** The math scorer's grader profile (see docs/evaluate.md, "Graders"); absent: default. */
  profile?: string;
  /** The reward rule: the paper's, or `format_bonus` with B from `--format-bonus B`. */
  reward: RewardScheme;
  apiKey: string | undefined;
  apiKeyEnv: string | undefined;
  /** Browser origins allowed to call (`--cors`); "*" allows any. */
  cors: string[];
  /** `--allowed-host`: names a `Host` header may carry besides loopback (serve/guard.ts). */
  allowedHosts: string[];
  runs: string | undefined;
  cache: { dir: string; mode: CacheMode } | undefined;
  /** Batches scored at once; more wait in line, and past `queue` waiting a batch gets a 429. */
  batches: number;
  queue: number;
  maxBodyBytes: number;
  graceMs: number;
  /** Where each item's run goes as an OpenTelemetry trace (--otlp-endpoint); null for nowhere. */
  otlp: OtlpTarget | null;
  /** Worker calls started per second per origin (--rate-limit), in Redis when a store is named. */
  rateLimit: { perSecond: number; store: string | undefined } | undefined;
  /** --unconfined-code: code answers run where the sandbox cannot confine them. */
  unconfinedCode?: boolean;
}

export const REWARD_DEFAULTS = {
  host: "127.0.0.1",
  port: 8090,
  concurrency: 16,
  scorer: "math",
  batches: 8,
  queue: 64,
  maxBodyBytes: 64 * 1024 * 1024,
  graceMs: 30_000,
} as const;

/** Reads the reward options; the server key comes from the environment, never the command line. */
export function parseRewardArgs(args: string[], env: NodeJS.ProcessEnv): RewardSettings {
  const { values } = parseArgs({
    args,
    options: {
      ...SERVICE_OPTIONS,
      scorer: { type: "string" },
      profile: { type: "string" },
      "format-bonus": { type: "string" },
      batches: { type: "string" },
      "rate-limit": { type: "string" },
      "rate-limit-store": { type: "string" },
      "unconfined-code": { type: "boolean" },
    },
  });
  if (!values.config) throw new UsageError("--config FILE is required.");
  if (values.profile !== undefined && !MathProfileSchema.safeParse(values.profile).success)
    throw new UsageError(
      `--profile must be one of ${MathProfileSchema.options.join(", ")}, got "${values.profile}".`,
    );
  const host = values.host ?? REWARD_DEFAULTS.host;
  const { apiKey, apiKeyEnv } = serverKey(values["api-key-env"], env, host, "serve rewards");
  const reward =
    values["format-bonus"] === undefined
      ? PAPER_REWARD
      : parseRewardOption(`format_bonus:${values["format-bonus"]}`);
  if (typeof reward === "string")
    throw new UsageError(
      `--format-bonus must be a number from 0 to 1, got "${values["format-bonus"]}".`,
    );
  const rateLimit = rateLimitOption(values["rate-limit"], values["rate-limit-store"]);
  const otlp = readOtlpOptions(values, env);
  if (!otlp.ok) throw new UsageError(otlp.message);
  return {
    config: values.config,
    host,
    port: integer(values.port, "port", REWARD_DEFAULTS.port, 0),
    concurrency: integer(values.concurrency, "concurrency", REWARD_DEFAULTS.concurrency, 1),
    scorer: values.scorer ?? REWARD_DEFAULTS.scorer,
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    reward,
    apiKey,
    apiKeyEnv,
    cors: values.cors ?? [],
    allowedHosts: values["allowed-host"] ?? [],
    runs: values.runs,
    cache: cacheOption(values.cache, values["cache-mode"]),
    batches: integer(values.batches, "batches", REWARD_DEFAULTS.batches, 1),
    queue: integer(values.queue, "queue", REWARD_DEFAULTS.queue, 0),
    maxBodyBytes: integer(
      values["max-body-bytes"],
      "max-body-bytes",
      REWARD_DEFAULTS.maxBodyBytes,
      1,
    ),
    graceMs: integer(values["grace-ms"], "grace-ms", REWARD_DEFAULTS.graceMs, 0),
    otlp: otlp.target,
    rateLimit,
    unconfinedCode: values["unconfined-code"] ?? false,
  };
}

/** `--rate-limit RPS [--rate-limit-store redis://HOST:PORT/DB]`; a store alone is an error. */
function rateLimitOption(
  rate: string | undefined,
  store: string | undefined,
): RewardSettings["rateLimit"] {
  if (store !== undefined && !/^rediss?:\/\//i.test(store))
    throw new UsageError(`--rate-limit-store must be a redis:// URL, got "${store}".`);
  if (rate === undefined) {
    if (store !== undefined) throw new UsageError("--rate-limit-store needs --rate-limit RPS.");
    return undefined;
  }
  const perSecond = Number(rate);
  if (!Number.isFinite(perSecond) || perSecond <= 0)
    throw new UsageError(
      `--rate-limit must be a number of calls per second above 0, got "${rate}".`,
    );
  return { perSecond, store };
}
