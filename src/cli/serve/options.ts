// The options the CLI's HTTP services (`serve`, `reward`) share, and how each is read: one place
// for the server key rule (none needed on loopback only), the cache, the integers. Each command
// keeps its own option table and help; these are spread into both.
import { isIP } from "node:net";
import type { CacheMode } from "../../engine/llm/cache.ts";
import { parseCacheMode } from "../cache-store.ts";
import { UsageError } from "../command.ts";
import { OTLP_OPTIONS } from "../otlp-export.ts";

/** The entries of parseArgs' table that both services take, with the same meaning. */
export const SERVICE_OPTIONS = {
  config: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  concurrency: { type: "string" },
  queue: { type: "string" },
  "api-key-env": { type: "string" },
  cors: { type: "string", multiple: true },
  "allowed-host": { type: "string", multiple: true },
  runs: { type: "string" },
  cache: { type: "string" },
  "cache-mode": { type: "string" },
  "max-body-bytes": { type: "string" },
  "grace-ms": { type: "string" },
  ...OTLP_OPTIONS,
} as const;

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (h.startsWith("::ffff:")) return h.slice(7).startsWith("127.");
  return false;
}

/** `--NAME N`: an integer of at least `min`, `fallback` when absent; a UsageError otherwise. */
export function integerOption(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer of at least ${min}, got "${value}".`);
  return n;
}

/**
 * The key clients must send, read from the variable `--api-key-env` names (never from the command
 * line). Without one, only a loopback `host` is allowed: `what` says what would be served.
 */
export function serverKey(
  keyEnv: string | undefined,
  env: NodeJS.ProcessEnv,
  host: string,
  what: string,
): { apiKey: string | undefined; apiKeyEnv: string | undefined } {
  const apiKey = keyEnv ? env[keyEnv] : undefined;
  if (keyEnv && !apiKey)
    throw new UsageError(`--api-key-env ${keyEnv}: that environment variable is not set.`);
  if (!apiKey && !isLoopback(host))
    throw new UsageError(
      `Refusing to ${what} on ${host} without a server key: anyone who can reach it could ` +
        `spend your workers' credits. Set a key in an environment variable and pass ` +
        `--api-key-env NAME, or bind to 127.0.0.1.`,
    );
  return { apiKey, apiKeyEnv: keyEnv };
}

/** `--cache DIR [--cache-mode MODE]`, or undefined without --cache (a mode alone is an error). */
export function cacheOption(
  dir: string | undefined,
  mode: string | undefined,
): { dir: string; mode: CacheMode } | undefined {
  if (mode !== undefined && dir === undefined)
    throw new UsageError("--cache-mode needs --cache DIR.");
  return dir === undefined ? undefined : { dir, mode: parseCacheMode(mode) };
}
