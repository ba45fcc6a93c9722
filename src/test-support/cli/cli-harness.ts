// Test support for the CLI integration tests: runs the real `bin/conductor-studio.mjs` as a child
// process (runCli), or its `main` in this process (runMain), against the local OpenAI-compatible test
// server. Not a test file itself.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestContext } from "vitest";
import { it } from "vitest";
import type { ChatBody, TestServer, TestServerOptions } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import { ChatBodySchema } from "../../../e2e/server/reply.ts";
import type { EvalResult } from "../../engine/eval/schema.ts";
import { EvalResultSchema } from "../../engine/eval/schema.ts";
import type { ExportEnvelope } from "../../engine/run/export.ts";
import { ExportEnvelopeSchema } from "../../engine/run/export.ts";
import type { Io } from "../../cli/command.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = join(ROOT, "bin", "conductor-studio.mjs");

/**
 * Spawns `conductor-studio <command> --port 0 ...args` as a long-running service (serve, reward): the
 * child sees only PATH plus `env`, its stdout is dropped and its stderr piped for the caller to watch.
 * `exited` resolves with the exit code.
 */
export function spawnService(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, command, "--port", "0", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited };
}

/** Per-test limit for tests that spawn the CLI (tsx takes about a second to start it; several seconds
 * under load): it catches a hang, it asserts no duration. */
export const CLI_TIMEOUT_MS = 60_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node bin/conductor-studio.mjs ...args`. The child sees only PATH plus `env` (so no key from
 * the developer's shell leaks in), and its stdin is always written and closed so nothing waits on it.
 */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    stdin?: string;
    timeoutMs?: number;
    /** Never kill the child: the test waits for it to exit by itself (its own timeout bounds it). */
    noKill?: boolean;
    /** Called with the child once spawned, e.g. to send it SIGINT part way. */
    onSpawn?: (child: ChildProcess) => void;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...options.env },
      stdio: "pipe",
      // Killed before the test's own timeout, so a hung CLI never outlives its test.
      timeout: options.noKill ? 0 : (options.timeoutMs ?? CLI_TIMEOUT_MS) - 2_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
    options.onSpawn?.(child);
  });
}

/**
 * `main(args)` in this process, seeing what `runCli` gives the child: PATH plus `env`, `stdin`,
 * stdout and stderr that are not a terminal. The same commands run on the same arguments, without
 * the second or more that starting tsx and loading every command costs a child; for tests about
 * what a command does, not about the process (its exit, signals, pipes) or its environment (a
 * library such as the openai package reads process.env, here the test runner's), which use `runCli`.
 */
export async function runMain(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    readStdin: () => Promise.resolve(options.stdin ?? ""),
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stderrIsTTY: false,
  };
  // Imported here, so a test file that only spawns the CLI does not load every command.
  const { main } = await import("../../cli/main.ts");
  const code = await main(args, io);
  return { code, stdout, stderr };
}

export interface Harness {
  server: TestServer;
  /** A fresh temp directory, removed after the test. */
  dir: string;
  /** Writes `content` (a string as is, anything else as JSON) into `dir` and returns its path. */
  file(name: string, content: unknown): Promise<string>;
}

/**
 * A vitest fixture from a set-up that registers its clean-ups with `onFinished` (as `harness` and
 * `serveInProcess` do): the test gets what it returns. The clean-ups go in the test's first
 * `onTestFinished` hook, so they run after the test's own hooks (those run as a stack): a child the
 * test stops is gone before its server and files. (A fixture's own teardown would run before them.)
 */
export function fixtureFrom<T>(
  start: (onFinished: (fn: () => Promise<void>) => void) => Promise<T>,
) {
  return async ({ onTestFinished }: TestContext, use: (value: T) => Promise<void>) => {
    await use(await start((fn) => onTestFinished(fn)));
  };
}

/** `it` with a fresh harness as the `h` fixture: `cliIt("…", async ({ expect, h }) => …)`. A test
 * that needs server options calls `harness(onTestFinished, options)` itself. */
export const cliIt = it.extend<{ h: Harness }>({ h: fixtureFrom((f) => harness(f)) });

/** A test server and a temp directory for one test; `onFinished` is the test context's hook. */
export async function harness(
  onFinished: (fn: () => Promise<void>) => void,
  serverOptions: TestServerOptions = {},
): Promise<Harness> {
  const server = await startTestServer(serverOptions);
  const dir = await mkdtemp(join(tmpdir(), "conductor-cli-"));
  onFinished(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    server,
    dir,
    async file(name, content) {
      const path = join(dir, name);
      await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
      return path;
    },
  };
}

export interface SeenRequest {
  headers: Record<string, string>;
  body: ChatBody;
}

/** The chat requests the server received for `model`, in arrival order. */
export function chatRequests(server: TestServer, model: string): SeenRequest[] {
  return server.requests.flatMap((r) => {
    if (r.path !== "/v1/chat/completions") return [];
    const body = ChatBodySchema.safeParse(r.body);
    return body.success && body.data.model === model
      ? [{ headers: r.headers, body: body.data }]
      : [];
  });
}

/** All message texts of a request, joined: what the model was shown. */
export function promptText(request: SeenRequest | undefined): string {
  return (request?.body.messages ?? [])
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

/** Reads the CLI's output as the versioned export; throws (failing the test) when it is not one. */
export function readExport(text: string): ExportEnvelope {
  return ExportEnvelopeSchema.parse(JSON.parse(text));
}

/** `eval --config <config> --dataset <dataset> --out <out>`, then `extra` (the flags under test). */
export function evalArgs(
  files: { config: string; dataset: string; out: string },
  ...extra: string[]
): string[] {
  return [
    "eval",
    "--config",
    files.config,
    "--dataset",
    files.dataset,
    "--out",
    files.out,
    ...extra,
  ];
}

/** Reads an `eval --out` file, one result a line; throws (failing the test) on a line that is not one. */
export async function readEvalResults(file: string): Promise<EvalResult[]> {
  const text = await readFile(file, "utf8");
  return text
    .trim()
    .split("\n")
    .map((l) => EvalResultSchema.parse(JSON.parse(l)));
}

/** A config with a Conductor and three workers (Solver A, Solver B, Checker) on the test server. */
export function threeWorkerConfig(
  server: TestServer,
  extra: Record<string, unknown> = {},
  keyEnv: { conductor?: string; a?: string; b?: string; c?: string } = {},
) {
  const entry = (model: string, env: string | undefined, input: number, output: number) => ({
    baseURL: server.baseURL,
    model,
    ...(env ? { apiKeyEnv: env } : {}),
    price: { input, output },
  });
  return {
    conductor: entry("conductor-7b", keyEnv.conductor, 0.1, 0.4),
    workers: [
      { name: "Solver A", ...entry("solver-a", keyEnv.a, 2, 10) },
      { name: "Solver B", ...entry("solver-b", keyEnv.b, 0.5, 1.5) },
      { name: "Checker", ...entry("checker", keyEnv.c, 3, 15) },
    ],
    maxSteps: 5,
    rounds: 0,
    ...extra,
  };
}

export const QUESTION = "What is the sum of the first 100 positive integers?";

/** A realistic Conductor completion: reasoning prose, then two independent attempts and a checker. */
export const ATTEMPTS_THEN_CHECK = `The question is a short arithmetic series, but off-by-one slips are common, so two models
should solve it independently and a third should compare them before answering.
Model 0 is strong at maths and model 1 is cheap, so they make the two attempts; model 2 checks.

model_id = [0, 1, 2]
subtasks = ["Solve the problem with the formula n(n+1)/2 and state the final number.", "Solve the problem by pairing terms from both ends and state the final number.", "Compare both earlier answers, check each for mistakes, and give the single correct final answer."]
access_list = [[], [], ["all"]]`;

export const ANSWER_A = "Using n(n+1)/2 with n = 100 gives 100 * 101 / 2 = 5050.";
export const ANSWER_B = "Pairing 1+100, 2+99, ..., 50+51 gives 50 pairs of 101, so 5050.";
export const CHECKED = "Both attempts are correct and agree. The sum is 5050.";

/** Scripted usage per model, so token counts and costs are exact. */
export const USAGE = {
  "conductor-7b": { prompt_tokens: 900, completion_tokens: 150 },
  "solver-a": { prompt_tokens: 120, completion_tokens: 40 },
  "solver-b": { prompt_tokens: 110, completion_tokens: 30 },
  checker: { prompt_tokens: 300, completion_tokens: 20 },
} as const;

/** The prompt and completion tokens of all four scripted calls together. */
export const USAGE_TOTAL = Object.values(USAGE).reduce(
  (t, u) => ({ p: t.p + u.prompt_tokens, c: t.c + u.completion_tokens }),
  { p: 0, c: 0 },
);

/** A chat request to the served `conductor` model with one user message. */
export const ask = (content = QUESTION) => ({
  model: "conductor",
  messages: [{ role: "user" as const, content }],
});

/** Scripts the Conductor's plan and the three workers' answers (with exact usage). */
export function scriptAttemptsThenCheck(server: TestServer): void {
  server.script("conductor-7b", { content: ATTEMPTS_THEN_CHECK, usage: USAGE["conductor-7b"] });
  server.script("solver-a", { content: ANSWER_A, usage: USAGE["solver-a"] });
  server.script("solver-b", { content: ANSWER_B, usage: USAGE["solver-b"] });
  server.script("checker", { content: CHECKED, usage: USAGE.checker });
}

/** An in-process Io that records what a command writes; `tty` makes stderr a terminal. */
export function memoryIo(
  options: { stdin?: string; env?: Record<string, string>; tty?: boolean; columns?: number } = {},
) {
  const out = { stdout: "", stderr: "" };
  const io = {
    stdout: (s: string) => void (out.stdout += s),
    stderr: (s: string) => void (out.stderr += s),
    readStdin: () => Promise.resolve(options.stdin ?? ""),
    env: options.env ?? {},
    stderrIsTTY: options.tty ?? false,
    columns: options.columns ?? 100,
  };
  return { out, io };
}
