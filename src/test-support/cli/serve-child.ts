// Test support for the `serve` integration tests: the real bin as a long-running child process,
// its stderr watched for lines, and an official `openai` client pointed at it. Not a test file.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { z } from "zod";
import type { TestServer, TestServerOptions } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import { ExportEnvelopeSchema } from "../../engine/run/export.ts";
import { spawnService } from "./cli-harness.ts";

export interface ServeProcess {
  child: ChildProcess;
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the first stderr line matching `re` (already written or still to come). */
  waitForLine(re: RegExp): Promise<string>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** An official client for the served model, retries off (a harness would see every status). */
  client(apiKey?: string): OpenAI;
}

/**
 * Starts `conductor-studio serve --port 0 ...args` and resolves once it listens. The child sees
 * only PATH plus `env`; it is killed when the test (or suite) finishes, via `onFinished`.
 */
export async function startServe(
  args: string[],
  env: Record<string, string>,
  onFinished: (fn: () => void | Promise<void>) => void,
): Promise<ServeProcess> {
  const { child, exited } = spawnService("serve", args, env);
  let stderr = "";
  const watchers: { re: RegExp; resolve: (line: string) => void }[] = [];
  const check = () => {
    for (const w of [...watchers]) {
      const line = stderr.split("\n").find((l) => w.re.test(l));
      if (line !== undefined) {
        watchers.splice(watchers.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
    check();
  });
  onFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  const waitForLine = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      watchers.push({ re, resolve });
      check();
      void exited.then((code) =>
        reject(new Error(`serve exited (${code}) before a line matched ${re}:\n${stderr}`)),
      );
    });
  const listening = await Promise.race([
    waitForLine(/listening on http:\/\/\S+\/v1/),
    exited.then((code) => {
      throw new Error(`serve exited with ${code} before listening:\n${stderr}`);
    }),
  ]);
  const url = /listening on (http:\/\/\S+)\/v1/.exec(listening)?.[1] ?? "";
  return {
    child,
    url,
    stderr: () => stderr,
    waitForLine,
    exited,
    client: (apiKey = "none") => new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0 }),
  };
}

const ServedLineSchema = ExportEnvelopeSchema.extend({
  served: z.object({
    request_id: z.string(),
    received_at: z.string(),
    stream: z.boolean(),
    http_status: z.number(),
    error_code: z.string().nullable(),
    client_disconnected: z.boolean(),
  }),
});
export type ServedLine = z.infer<typeof ServedLineSchema>;

/** Every run record under a --runs directory, each line validated as an export plus `served`. */
export async function readRuns(dir: string): Promise<ServedLine[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".jsonl"));
  const lines: ServedLine[] = [];
  for (const f of files) {
    const text = await readFile(join(dir, f), "utf8");
    for (const line of text.split("\n").filter(Boolean)) {
      lines.push(ServedLineSchema.parse(JSON.parse(line)));
    }
  }
  return lines;
}

/** The most runs whose [start, finish) intervals overlap at one moment. */
export function maxOverlap(
  runs: { startedAt: number | null; finishedAt: number | null }[],
): number {
  const edges = runs.flatMap((r) => [
    { at: r.startedAt ?? 0, d: 1 },
    { at: r.finishedAt ?? 0, d: -1 },
  ]);
  // A run that finishes at the moment another starts freed its slot first.
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) {
    now += e.d;
    most = Math.max(most, now);
  }
  return most;
}

export interface ServeSuite {
  server: TestServer;
  serve: ServeProcess;
  /** The temp directory of the suite; run records go to `runs` inside it. */
  dir: string;
  runs: string;
  /** A client with the server key. */
  client: OpenAI;
}

/**
 * One test server and one `serve` process for a whole describe block (spawning costs a second or
 * more on a loaded machine): started in beforeAll, the test server reset before each test.
 * `config` builds the pool config from the test server; `args` are added after --config/--runs.
 */
export function serveSuite(o: {
  config: (server: TestServer) => unknown;
  args?: string[];
  env?: Record<string, string>;
  apiKey?: string;
  server?: TestServerOptions;
}): ServeSuite {
  const suite = {} as ServeSuite;
  const cleanups: (() => void | Promise<void>)[] = [];
  beforeAll(async () => {
    suite.server = await startTestServer(o.server);
    suite.dir = await mkdtemp(join(tmpdir(), "conductor-serve-"));
    suite.runs = join(suite.dir, "runs");
    const config = join(suite.dir, "pool.json");
    await writeFile(config, JSON.stringify(o.config(suite.server)));
    const args = ["--config", config, "--runs", suite.runs, ...(o.args ?? [])];
    suite.serve = await startServe(args, o.env ?? {}, (fn) => cleanups.push(fn));
    suite.client = suite.serve.client(o.apiKey);
  }, 20_000);
  afterAll(async () => {
    for (const fn of cleanups) await fn();
    await suite.server?.close();
    if (suite.dir) await rm(suite.dir, { recursive: true, force: true });
  });
  beforeEach(() => suite.server.reset());
  return suite;
}
