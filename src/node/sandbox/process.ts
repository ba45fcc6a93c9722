/**
 * The Node sandbox: interpreters in separate Node processes (child.ts) under Node's permission
 * model, for the CLI, the tests and the bench. Each process:
 * - may read only Pyodide's own files (`--allow-fs-read=<pyodide dir>`) and write nothing;
 * - may start no process and no worker thread (no `--allow-child-process`, no `--allow-worker`);
 * - gets an empty environment, so the CLI's API keys are not there to read;
 * - is killed (SIGKILL) when a program runs past its limit.
 * Node 20's permission model has no network switch: the process reaches the network only through
 * JavaScript, which programs cannot run there (child.ts), and Pyodide has no sockets of its own.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { HostMessage } from "../../engine/eval/code/protocol.ts";
import type { PoolOptions, Sandbox, WorkerPort } from "../../engine/eval/code/pool.ts";
import { createInterpreterPool } from "../../engine/eval/code/pool.ts";
import { UNCONFINED_FLAG, detectConfinement } from "./confine.ts";
import { createStandby, nativePort } from "./native.ts";

/** Pyodide's folder, the one thing a sandbox process may read. */
export const PYODIDE_DIR = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));

/** The init message as the process gets it: a snapshot by file name. */
export interface ChildInit {
  type: "init";
  snapshot: null;
  snapshotFile: string;
}

let bundle: Promise<string> | null = null;

/** child.ts and what it imports as one ES module (Pyodide stays outside, loaded from its folder). */
function childSource(): Promise<string> {
  bundle ??= build({
    entryPoints: [fileURLToPath(new URL("./child.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["pyodide", "node:*"],
    logLevel: "silent",
  }).then((r) => r.outputFiles[0]?.text ?? "");
  return bundle;
}

/**
 * The memory snapshot a cold start sent, as a file that later processes may read (one
 * `--allow-fs-read` more): it is not copied through the CLI's event loop for every new process.
 */
const snapshotFiles = new WeakMap<Uint8Array, string>();
let snapshotDir: string | null = null;
function snapshotFile(bytes: Uint8Array): string {
  let file = snapshotFiles.get(bytes);
  if (file) return file;
  if (!snapshotDir) {
    const dir = mkdtempSync(join(tmpdir(), "conductor-sandbox-"));
    snapshotDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  file = join(snapshotDir, `snapshot-${Date.now()}.bin`);
  writeFileSync(file, bytes, { mode: 0o400 });
  snapshotFiles.set(bytes, file);
  return file;
}

/** The arguments that start one sandbox process; exported for the tests that check them. */
export function sandboxArgs(source: string, readable: string[] = []): string[] {
  return [
    "--experimental-permission",
    `--allow-fs-read=${PYODIDE_DIR}/`,
    ...readable.map((f) => `--allow-fs-read=${f}`),
    "--disable-warning=ExperimentalWarning",
    "--input-type=module",
    "-e",
    source,
    `${PYODIDE_DIR}/`,
  ];
}

function spawnSandboxProcess(hook: boolean): WorkerPort {
  let failure: (message: string) => void = () => undefined;
  let onMessage: (data: unknown) => void = () => undefined;
  let terminated = false;
  let child: ReturnType<typeof spawn> | null = null;
  const queue: (HostMessage | ChildInit)[] = [];
  let stderr = "";
  void childSource().then(
    (source) => {
      if (terminated) return;
      // The init message comes first (the pool posts it at once); a snapshot goes as a file.
      const init = queue[0]?.type === "init" ? queue[0] : null;
      const file = init?.snapshot ? snapshotFile(init.snapshot) : null;
      if (file) queue[0] = { type: "init", snapshot: null, snapshotFile: file };
      const args = sandboxArgs(source, file ? [file] : []);
      // before Pyodide's folder, which child.ts reads as the last argument (no dashes: node would
      // read it as its own option)
      if (hook) args.splice(-1, 0, "escape-hook");
      const c = spawn(process.execPath, args, {
        env: {},
        stdio: ["ignore", "pipe", "pipe", "ipc"],
        serialization: "advanced",
      });
      child = c;
      c.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      c.on("message", (m) => onMessage(m));
      // A limit hit while the program still runs comes as a line on stdout (child.ts).
      let lines = "";
      c.stdout?.on("data", (d: Buffer) => {
        lines = (lines + d.toString()).slice(-1_000_000);
        let at: number;
        while ((at = lines.indexOf("\n")) >= 0) {
          const line = lines.slice(0, at);
          lines = lines.slice(at + 1);
          try {
            onMessage(JSON.parse(line) as unknown);
          } catch {
            // not a message: ignored (the pool validates whatever it gets anyway)
          }
        }
      });
      c.on("error", (e) => failure(e.message));
      c.on("exit", (code, signal) => {
        if (!terminated) failure(`exited with ${signal ?? `code ${code}`}${tail(stderr)}`);
      });
      for (const m of queue.splice(0)) c.send(m);
    },
    (e: unknown) => failure(`could not build the sandbox process: ${String(e)}`),
  );
  return {
    post: (msg) => {
      if (child?.connected) child.send(msg);
      else if (!child) queue.push(msg);
    },
    onMessage: (cb) => (onMessage = cb),
    onFailure: (cb) => (failure = cb),
    terminate: () => {
      terminated = true;
      child?.kill("SIGKILL");
    },
  };
}

/** The error line of what the process printed as it died. */
const tail = (s: string) => {
  const lines = s.trim().split("\n").filter(Boolean);
  const line = lines.find((l) => /Error/.test(l)) ?? lines.at(-1);
  return line ? `: ${line.slice(0, 300)}` : "";
};

/** How the Node sandbox runs programs. */
export interface NodeSandboxOptions extends Omit<PoolOptions, "spawn"> {
  /**
   * Pyodide in permission-restricted Node processes, with no boundary below JavaScript: only for
   * a user who passed UNCONFINED_FLAG (or the tests of that runtime).
   */
  unconfined?: boolean;
}

/** The env var that turns the test-only escape hook on (with vitest's own VITEST beside it). */
export const ESCAPE_HOOK_ENV = "CONDUCTOR_SANDBOX_ESCAPE_HOOK";

/**
 * Whether the escape hook is on: a program starting with ESCAPE_MARKER runs as an escaped one
 * would (unguarded Python in the confined process; JavaScript in the Pyodide process). Only a
 * test turns it on; anywhere else the variable makes the sandbox refuse to start.
 */
function escapeHook(env: NodeJS.ProcessEnv): boolean {
  if (env[ESCAPE_HOOK_ENV] !== "1") return false;
  if (!env.VITEST)
    throw new Error(`${ESCAPE_HOOK_ENV} is a test-only switch; unset it to score code answers.`);
  return true;
}

/**
 * The code scorer's sandbox for the CLI (eval, score, reward): `python3` confined by bubblewrap
 * where the machine has it (confine.ts, native.ts). Where it does not, this throws a message that
 * says why and names UNCONFINED_FLAG; with `unconfined`, Pyodide in Node processes as before.
 */
export function createNodeSandbox(opts: NodeSandboxOptions = {}): Sandbox {
  const { unconfined, ...pool } = opts;
  const hook = escapeHook(process.env);
  if (unconfined) return createInterpreterPool({ ...pool, spawn: () => spawnSandboxProcess(hook) });
  const check = detectConfinement();
  if (!check.ok) throw new Error(confinementRefusal(check.reason));
  const standby = createStandby(check.confinement, hook, Math.max(1, pool.size ?? 2));
  const sandbox = createInterpreterPool({ ...pool, spawn: () => nativePort(standby) });
  return {
    ...sandbox,
    dispose() {
      sandbox.dispose();
      standby.dispose();
    },
  };
}

/**
 * Null where code answers can run (confined, or the user accepted the risk); else the refusal.
 * The CLI asks before any model is called, so no one pays for answers that cannot be scored.
 */
export function nodeSandboxRefusal(unconfined: boolean): string | null {
  if (unconfined) return null;
  const check = detectConfinement();
  return check.ok ? null : confinementRefusal(check.reason);
}

/** What the CLI says when it starts the sandbox. */
export function nodeSandboxName(unconfined: boolean): string {
  const check = unconfined ? null : detectConfinement();
  return check?.ok
    ? `python3 ${check.confinement.version} confined by bubblewrap`
    : `Pyodide, unconfined (${UNCONFINED_FLAG})`;
}

/** Why code answers will not run here, and the one flag that runs them anyway. */
export function confinementRefusal(reason: string): string {
  return (
    `Code answers are not run: ${reason}, and without it a hostile answer could reach this ` +
    `machine (its network, its files, your API keys). Pass ${UNCONFINED_FLAG} to run them in ` +
    "Pyodide with no boundary below the interpreter, accepting that risk."
  );
}
