// Test support: `serve` in this process (no spawn: fast on a loaded machine), on the local test
// server, with the keep-alive interval replaced by a tick the test fires. Not a test file.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { it } from "vitest";
import type { TestServer, TestServerOptions } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import { fixtureFrom, threeWorkerConfig } from "./cli-harness.ts";
import { resolveConfig } from "../../cli/config.ts";
import { parseServeArgs } from "../../cli/serve/args.ts";
import type { RunningServer } from "../../cli/serve/server.ts";
import { startServe } from "../../cli/serve/server.ts";

export interface InProcessServe {
  server: TestServer;
  running: RunningServer;
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  /** The --runs directory. */
  runs: string;
  log: string[];
  /** Fires every keep-alive interval now running (one per open stream). */
  tick(): void;
  /** How many streams have a keep-alive interval running. */
  ticking(): number;
  /** An official client with its default retries (as a harness has them) unless told otherwise. */
  client(o?: { maxRetries?: number; apiKey?: string }): OpenAI;
}

/**
 * The test server and `serve` on it with `threeWorkerConfig(server, config)`, stopped when the test
 * finishes. `args` are serve flags after --config and --runs.
 */
export async function serveInProcess(
  onFinished: (fn: () => Promise<void>) => void,
  o: {
    args?: string[];
    config?: Record<string, unknown>;
    server?: TestServerOptions;
    env?: Record<string, string>;
  } = {},
): Promise<InProcessServe> {
  const server = await startTestServer(o.server);
  const dir = await mkdtemp(join(tmpdir(), "conductor-serve-"));
  const live: { running?: RunningServer } = {};
  // Registered first, so a serve that fails to start leaves nothing behind either.
  onFinished(async () => {
    await live.running?.shutdown(0);
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const runs = join(dir, "runs");
  const parsed = parseServeArgs(
    ["--config", "-", "--runs", runs, "--port", "0", ...(o.args ?? [])],
    o.env ?? {},
  );
  if (!parsed.ok) throw new Error(parsed.message);
  const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(server, o.config)), {});
  if (!resolved.ok) throw new Error(resolved.message);
  const intervals = new Set<() => void>();
  const log: string[] = [];
  const started = await startServe(parsed.settings, resolved, (l) => log.push(l), {
    every: (fn) => {
      intervals.add(fn);
      return () => intervals.delete(fn);
    },
  });
  live.running = started;
  return {
    server,
    running: started,
    url: started.url,
    runs,
    log,
    tick: () => {
      for (const fn of intervals) fn();
    },
    ticking: () => intervals.size,
    client: (c = {}) =>
      new OpenAI({
        baseURL: `${started.url}/v1`,
        apiKey: c.apiKey ?? "none",
        maxRetries: c.maxRetries,
      }),
  };
}

/** `it` with `serve` started in this process as the `s` fixture (no options):
 * `serveIt("…", async ({ expect, s }) => …)`. Everything stops when the test ends. A test that needs
 * serve flags, config or env calls `serveInProcess(onTestFinished, options)` itself. */
export const serveIt = it.extend<{ s: InProcessServe }>({
  s: fixtureFrom((f) => serveInProcess(f)),
});
