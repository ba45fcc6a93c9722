// `conductor-studio serve` options: parsed, checked, and turned into settings or one clear message.
import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
import { parseArgs } from "node:util";
import { EXIT, exitCodesHelp } from "../exit-codes.ts";
import { CONFIG_HELP } from "../config.ts";
import { explainParseArgsError, optionsIn } from "../suggest.ts";
import type { CacheMode } from "../../engine/llm/cache.ts";
import { UsageError } from "../command.ts";
import type { OtlpTarget } from "../otlp-export.ts";
import { OTLP_PROTOCOL_HELP, readOtlpOptions } from "../otlp-export.ts";
import { SERVICE_OPTIONS, cacheOption, integerOption as integer, serverKey } from "./options.ts";

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
  /** `--allowed-host`: names a `Host` header may carry besides loopback (guard.ts). */
  allowedHosts: string[];
  /** Directory for the JSON-lines run log; undefined writes none. */
  runs: string | undefined;
  /** The model name clients use and /v1/models lists. */
  model: string;
  /** Largest accepted request body in bytes. */
  maxBodyBytes: number;
  /** How long in-flight runs may take to finish after SIGINT/SIGTERM before they are cancelled. */
  graceMs: number;
  /** Refuse a config with unknown keys instead of warning. */
  strict?: boolean;
  /** `--cache DIR` / `--cache-mode`: the response cache (cli/cache-store.ts); undefined for none. */
  cache?: { dir: string; mode: CacheMode };
  /** Where each run goes as an OpenTelemetry trace (--otlp-endpoint); null for nowhere. */
  otlp?: OtlpTarget | null;
  /** A streamed answer sends an SSE comment after this long with nothing else sent. */
  keepAliveMs: number;
  /** The --runs file starts a new one past this size. */
  runsMaxBytes: number;
  /** `--mcp`: also serve the MCP tools (plan, run_plan, solve) at /mcp. */
  mcp?: boolean;
  /** The worker (by name) that answers alone when the Conductor cannot plan; undefined for none. */
  fallbackWorker: string | undefined;
}

export type ServeArgs = { ok: true; settings: ServeSettings } | ({ ok: false } & Failure);

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

/** Reads the serve options; the server key comes from the environment, never from the command line. */
export function parseServeArgs(args: string[], env: NodeJS.ProcessEnv): ServeArgs {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        ...SERVICE_OPTIONS,
        model: { type: "string" },
        strict: { type: "boolean" },
        "keepalive-ms": { type: "string" },
        "runs-max-bytes": { type: "string" },
        fallback: { type: "string" },
        mcp: { type: "boolean" },
      },
    }).values;
  } catch (e: unknown) {
    const message = explainParseArgsError(e, SERVE_OPTIONS);
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: message ?? (e instanceof Error ? e.message : String(e)),
    };
  }
  if (!values.config)
    return { ok: false, code: ErrorCode.invalid_argument, message: "--config FILE is required." };
  const fallback = values.fallback;
  if (fallback !== undefined && !/^worker:.+/.test(fallback)) {
    return {
      ok: false,
      code: ErrorCode.invalid_argument,
      message: `--fallback must be worker:NAME (a worker of the pool, by name), got "${fallback}".`,
    };
  }
  try {
    const concurrency = integer(values.concurrency, "concurrency", SERVE_DEFAULTS.concurrency, 1);
    const host = values.host ?? SERVE_DEFAULTS.host;
    const { apiKey, apiKeyEnv } = serverKey(values["api-key-env"], env, host, "serve");
    const cache = cacheOption(values.cache, values["cache-mode"]);
    const otlp = readOtlpOptions(values, env);
    if (!otlp.ok) return otlp;
    return {
      ok: true,
      settings: {
        config: values.config,
        host,
        port: integer(values.port, "port", SERVE_DEFAULTS.port, 0),
        concurrency,
        queue: integer(values.queue, "queue", concurrency * 16, 0),
        apiKey,
        apiKeyEnv,
        cors: values.cors ?? [],
        allowedHosts: values["allowed-host"] ?? [],
        runs: values.runs,
        model: values.model ?? SERVE_DEFAULTS.model,
        maxBodyBytes: integer(
          values["max-body-bytes"],
          "max-body-bytes",
          SERVE_DEFAULTS.maxBodyBytes,
          1,
        ),
        graceMs: integer(values["grace-ms"], "grace-ms", SERVE_DEFAULTS.graceMs, 0),
        strict: values.strict ?? false,
        ...(cache ? { cache } : {}),
        otlp: otlp.target,
        keepAliveMs: integer(values["keepalive-ms"], "keepalive-ms", SERVE_DEFAULTS.keepAliveMs, 1),
        runsMaxBytes: integer(
          values["runs-max-bytes"],
          "runs-max-bytes",
          SERVE_DEFAULTS.runsMaxBytes,
          1024,
        ),
        fallbackWorker: fallback?.slice("worker:".length),
        mcp: values.mcp ?? false,
      },
    };
  } catch (e: unknown) {
    if (e instanceof UsageError)
      return { ok: false, code: ErrorCode.invalid_argument, message: e.message };
    throw e;
  }
}

/** The help of `conductor-studio serve`; every option above is in it. */
export const SERVE_HELP = `Serve the Conductor and its pool as one OpenAI-compatible model, for evaluation harnesses
(lighteval, lm-evaluation-harness, Inspect, promptfoo, simple-evals) and any OpenAI client.

Usage: conductor-studio serve --config FILE [options]

Options:
  --config FILE          the Conductor and the workers (JSON, below; required)
  --host HOST            address to bind (default 127.0.0.1); anything but loopback needs --api-key-env
  --port N               port (default 8080; 0 picks a free one)
  --concurrency N        runs at once (default 4)
  --queue N              requests that may wait beyond them (default 16 x concurrency; then 429)
  --api-key-env NAME     the environment variable holding the key clients must send as a Bearer token
  --cors ORIGIN          allow a browser origin ("*" for any); repeat for several. Without it
                         a request with an Origin is refused (403): no web page can spend your keys
  --allowed-host NAME    also answer requests whose Host is NAME (a proxy, a LAN name); on loopback
                         only localhost, 127.0.0.1 and [::1] are answered (403 otherwise)
  --runs DIR             append each run record as a JSON line to DIR/runs-<start>-<pid>.jsonl
  --model NAME           the served model name (default "conductor")
  --max-body-bytes N     largest request body (default 1048576, 1 MiB; then 413)
  --grace-ms N           on Ctrl+C, how long runs in flight may finish (default 30000)
  --strict               refuse a config with unknown keys instead of warning
  --cache DIR            answer repeated model requests from DIR at no cost (README: the response cache)
  --cache-mode MODE      read-write (default), read-only or refresh, for --cache
  --otlp-endpoint URL    send each run as an OpenTelemetry trace (OTLP/HTTP) to a collector
  --otlp-headers-env VAR a variable holding the collector's headers as k=v,k2=v2
  --otlp-content         add prompts and answers to the traces (off by default)
${OTLP_PROTOCOL_HELP}
  --keepalive-ms N       a stream sends an SSE comment after this long with nothing else sent (10000)
  --runs-max-bytes N     a new --runs file past this size (default 268435456, 256 MiB)
  --fallback worker:NAME when the Conductor cannot plan (asked twice), that worker answers alone
  --mcp                  also serve MCP tools (plan, run_plan, solve) at /mcp, streamable HTTP

Endpoints:
  POST /v1/chat/completions  the last user message is the question; earlier messages are shown to the
                             Conductor as context. "stream": true streams the final step's tokens;
                             "conductor_trace": true adds the run's plans, steps, usage and cost.
                             sampling fields (temperature, max_tokens, top_k, ...) and unknown ones
                             are ignored and named in x-conductor-ignored; tools, tool_choice,
                             response_format, n > 1, logprobs and audio output are refused (400).
  POST /v1/responses         the same run in the Responses shape (input, instructions, stream events)
  POST /mcp                  with --mcp: the MCP tools (2026-07-28 stateless; 2025-11-25 clients too)
  GET /v1/models             the served name; GET /health: {"status":"ok","running":N,"queued":M}
                             (503 "draining" while shutting down)

HTTP statuses (OpenAI error objects {"error":{"message","type","code","param"}}):
  200  the workflow's answer; usage is the sum of every call of the run, the Conductor's included
  400  no user message, unsupported_parameter, invalid_path, context_length_exceeded
  401  a missing or wrong server key (Authorization: Bearer KEY only)
  403  host_not_allowed (see --allowed-host), origin_not_allowed (see --cors)
  415  unsupported_media_type: a POST body not sent as Content-Type: application/json
  404  model_not_found: another model name     413  a body over --max-body-bytes
  429  queue_full (every slot busy, the queue full) or upstream_rate_limited, with Retry-After
  502  upstream_auth, upstream_bad_request, upstream_not_found, plan_error, call_budget (no retry
       helps: x-should-retry: false), upstream_unavailable (a retry may help)
  504  upstream_timeout                       503  shutting down
  The README's serving section lists every code and header.

Ctrl+C (SIGINT or SIGTERM) stops accepting, waits --grace-ms for runs in flight, then cancels them
(503); a second Ctrl+C cancels at once. A client that disconnects cancels its run. Keys never reach
the log or the records.

${CONFIG_HELP}
${exitCodesHelp({
  [EXIT.ok]: "stopped after Ctrl+C (SIGINT or SIGTERM)",
  [EXIT.failed]: "cannot listen on --host:--port (in use, no permission)",
  [EXIT.usage]: "usage error or an invalid config",
})}
Examples:
  conductor-studio serve --config pool.json --port 8080
  CONDUCTOR_SERVE_KEY=$(openssl rand -hex 16) conductor-studio serve --config pool.json --host 0.0.0.0 --api-key-env CONDUCTOR_SERVE_KEY --runs runs/
  curl -s localhost:8080/v1/chat/completions -H 'Content-Type: application/json' -d '{"model":"conductor","messages":[{"role":"user","content":"What is 17 * 23?"}]}'
`;

/** The options serve documents, for "did you mean". */
const SERVE_OPTIONS = optionsIn(SERVE_HELP);
