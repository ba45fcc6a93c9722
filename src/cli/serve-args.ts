// `conductor-studio serve` options: parsed, checked, and turned into settings or one clear message.
import { isIP } from "node:net";
import { parseArgs } from "node:util";

export interface ServeSettings {
  config: string;
  host: string;
  port: number;
  /** Runs at once; requests beyond it wait in the queue. */
  concurrency: number;
  /** Requests that may wait for a free run slot; one more gets a 429. */
  queue: number;
  /** The key clients must send as `Authorization: Bearer ...`; undefined when none is required. */
  apiKey: string | undefined;
  /** The environment variable the key came from (logged instead of the key). */
  apiKeyEnv: string | undefined;
  /** Origins allowed to call from a browser; "*" allows any. */
  cors: string[];
  /** Directory for the JSON-lines run log; undefined writes none. */
  runs: string | undefined;
  /** The model name clients use and /v1/models lists. */
  model: string;
  /** Largest accepted request body in bytes. */
  maxBodyBytes: number;
  /** How long in-flight runs may take to finish after SIGINT/SIGTERM before they are cancelled. */
  graceMs: number;
  /** A streamed answer sends an SSE comment after this long with nothing else sent. */
  keepAliveMs: number;
  /** The --runs file starts a new one past this size. */
  runsMaxBytes: number;
  /** The worker (by name) that answers alone when the Conductor cannot plan; undefined for none. */
  fallbackWorker: string | undefined;
}

export type ServeArgs = { ok: true; settings: ServeSettings } | { ok: false; message: string };

export const SERVE_DEFAULTS = {
  host: "127.0.0.1",
  port: 8080,
  concurrency: 4,
  model: "conductor",
  maxBodyBytes: 1024 * 1024,
  graceMs: 30_000,
  keepAliveMs: 10_000,
  runsMaxBytes: 256 * 1024 * 1024,
} as const;

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (h.startsWith("::ffff:")) return h.slice(7).startsWith("127.");
  return false;
}

function integer(value: string | undefined, name: string, fallback: number, min: number) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new RangeError(`--${name} must be an integer of at least ${min}, got "${value}".`);
  }
  return n;
}

/** Reads the serve options; the server key comes from the environment, never from the command line. */
export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv): ServeArgs {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        config: { type: "string" },
        host: { type: "string" },
        port: { type: "string" },
        concurrency: { type: "string" },
        queue: { type: "string" },
        "api-key-env": { type: "string" },
        cors: { type: "string", multiple: true },
        runs: { type: "string" },
        model: { type: "string" },
        "max-body-bytes": { type: "string" },
        "grace-ms": { type: "string" },
        "keepalive-ms": { type: "string" },
        "runs-max-bytes": { type: "string" },
        fallback: { type: "string" },
      },
    }).values;
  } catch (e: unknown) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  if (!values.config) return { ok: false, message: "--config FILE is required." };
  const fallback = values.fallback;
  if (fallback !== undefined && !/^worker:.+/.test(fallback)) {
    return {
      ok: false,
      message: `--fallback must be worker:NAME (a worker of the pool, by name), got "${fallback}".`,
    };
  }
  try {
    const concurrency = integer(values.concurrency, "concurrency", SERVE_DEFAULTS.concurrency, 1);
    const host = values.host ?? SERVE_DEFAULTS.host;
    const keyEnv = values["api-key-env"];
    const apiKey = keyEnv ? env[keyEnv] : undefined;
    if (keyEnv && !apiKey) {
      return {
        ok: false,
        message: `--api-key-env ${keyEnv}: that environment variable is not set.`,
      };
    }
    if (!apiKey && !isLoopback(host)) {
      return {
        ok: false,
        message:
          `Refusing to serve on ${host} without a server key: anyone who can reach it could spend ` +
          `your workers' credits. Set a key in an environment variable and pass --api-key-env NAME, ` +
          `or bind to 127.0.0.1.`,
      };
    }
    return {
      ok: true,
      settings: {
        config: values.config,
        host,
        port: integer(values.port, "port", SERVE_DEFAULTS.port, 0),
        concurrency,
        queue: integer(values.queue, "queue", concurrency * 16, 0),
        apiKey,
        apiKeyEnv: keyEnv,
        cors: values.cors ?? [],
        runs: values.runs,
        model: values.model ?? SERVE_DEFAULTS.model,
        maxBodyBytes: integer(
          values["max-body-bytes"],
          "max-body-bytes",
          SERVE_DEFAULTS.maxBodyBytes,
          1,
        ),
        graceMs: integer(values["grace-ms"], "grace-ms", SERVE_DEFAULTS.graceMs, 0),
        keepAliveMs: integer(values["keepalive-ms"], "keepalive-ms", SERVE_DEFAULTS.keepAliveMs, 1),
        runsMaxBytes: integer(
          values["runs-max-bytes"],
          "runs-max-bytes",
          SERVE_DEFAULTS.runsMaxBytes,
          1024,
        ),
        fallbackWorker: fallback?.slice("worker:".length),
      },
    };
  } catch (e: unknown) {
    if (e instanceof RangeError) return { ok: false, message: e.message };
    throw e;
  }
}
