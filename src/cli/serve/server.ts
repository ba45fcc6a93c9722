// `conductor-studio serve`: the Conductor and its pool as one OpenAI-compatible model.
import { loadCommandConfig } from "../config.ts";
import type { ResolvedConfig } from "../config.ts";
import type { ChatContext } from "./chat.ts";
import { SHUTDOWN } from "./chat.ts";
import type { ServeSettings } from "./args.ts";
import { parseServeArgs } from "./args.ts";
import { openResponseCache } from "../cache-store.ts";
import { createEngine, fallbackWorkerId } from "../kit/engine.ts";
import { createServeServer } from "./http.ts";
import type { RunningService } from "./lifecycle.ts";
import { ServiceLife, untilStopped } from "./lifecycle.ts";
import type { RunLog } from "./log.ts";
import { openRunLog } from "./log.ts";
import { RunQueue } from "./request-queue.ts";
import { OtlpExporter } from "../otlp-export.ts";
import { createMcpEndpoint } from "../mcp/http.ts";
import { MCP_VERSION } from "../mcp/tools.ts";

export interface ServeIo {
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

export type RunningServer = RunningService;

/** A setting that cannot work with this config (exit code 2, as for a bad option). */
export class ServeSetupError extends Error {
  override readonly name = "ServeSetupError";
}

/** What tests inject instead of real timers. */
export interface ServeHooks {
  /** Calls `fn` once per keep-alive interval until the returned function stops it. */
  every?: (fn: () => void) => () => void;
}

/** Starts serving `resolved` with `settings`; the in-process entry the CLI and the bench share. */
export async function startServe(
  settings: ServeSettings,
  resolved: ResolvedConfig,
  log: (line: string) => void,
  hooks: ServeHooks = {},
): Promise<RunningServer> {
  const runLog: RunLog | undefined = settings.runs
    ? await openRunLog(settings.runs, { maxBytes: settings.runsMaxBytes })
    : undefined;
  const life = new ServiceLife();
  const queue = new RunQueue(settings.concurrency, settings.queue);
  const cache = await openResponseCache(settings.cache?.dir, settings.cache?.mode, "distinct");
  const otlp = settings.otlp
    ? new OtlpExporter(settings.otlp, (line) => log(`otel: ${line}`))
    : undefined;
  const fallback = fallbackWorkerId(resolved, settings.fallbackWorker);
  if (!fallback.ok) throw new ServeSetupError(fallback.message);
  const ctx: ChatContext = {
    engine: createEngine(resolved, { cache, fallbackWorker: fallback.id }),
    queue,
    model: settings.model,
    runLog,
    otlp,
    log,
    track: life.track,
    every:
      hooks.every ??
      ((fn) => {
        const timer = setInterval(fn, settings.keepAliveMs);
        return () => clearInterval(timer);
      }),
  };
  const mcp = settings.mcp
    ? createMcpEndpoint(
        { engine: ctx.engine, queue, version: MCP_VERSION, log },
        settings.maxBodyBytes,
      )
    : undefined;
  const server = createServeServer(
    ctx,
    {
      ...(mcp ? { mcp } : {}),
      apiKey: settings.apiKey,
      guard: { bind: settings.host, allowedHosts: settings.allowedHosts, cors: settings.cors },
      maxBodyBytes: settings.maxBodyBytes,
      draining: life.draining,
    },
    life.inFlight,
  );
  return life.start(server, settings.port, settings.host, {
    queue,
    abortReason: SHUTDOWN,
    graceMs: settings.graceMs,
    release: async () => {
      await mcp?.close();
      await runLog?.close();
      await otlp?.close();
      await cache?.store.close?.();
    },
  });
}

/** The `serve` command: returns its exit code once it has shut down (or could not start). */
export async function serveCommand(args: string[], io: ServeIo): Promise<number> {
  const parsed = parseServeArgs(args, io.env);
  if (!parsed.ok) {
    io.stderr(`${parsed.message}\nRun conductor-studio serve --help for usage.\n`);
    return 2;
  }
  const settings = parsed.settings;
  const resolved = await loadCommandConfig(settings.config, io, settings.strict);
  if (!resolved) return 2;
  const log = (line: string) => io.stderr(`[serve] ${line}\n`);
  let running: RunningServer;
  try {
    running = await startServe(settings, resolved, log);
  } catch (e: unknown) {
    if (e instanceof ServeSetupError) {
      io.stderr(`${e.message}\n`);
      return 2;
    }
    io.stderr(
      `Cannot serve on ${settings.host}:${settings.port}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return 1;
  }
  const keyNote = settings.apiKeyEnv ? `server key from $${settings.apiKeyEnv}` : "no server key";
  const fallbackNote = settings.fallbackWorker ? `, fallback to ${settings.fallbackWorker}` : "";
  log(
    `listening on ${running.url}/v1 as "${settings.model}" (concurrency ${settings.concurrency}, ` +
      `queue ${settings.queue}, ${keyNote}${fallbackNote}${settings.runs ? `, runs to ${settings.runs}` : ""}` +
      `${settings.otlp ? `, traces to ${settings.otlp.url}` : ""}` +
      `${settings.mcp ? `, MCP at ${running.url}/mcp` : ""})`,
  );
  await untilStopped(
    running,
    log,
    (signal) =>
      `${signal}: no new requests; waiting up to ${(settings.graceMs / 1000).toFixed(1)}s for runs in flight (again to cancel them)`,
  );
  return 0;
}
