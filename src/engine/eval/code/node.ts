/**
 * The Node sandbox: interpreters in worker threads (node-worker.ts), for the CLI, the tests and
 * the bench. Each thread gets an empty environment, so the CLI's API keys are not visible to it.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { PoolOptions, Sandbox, WorkerPort } from "./pool.ts";
import { createInterpreterPool } from "./pool.ts";

// Worker threads run plain JavaScript: the thread registers tsx (as bin/conductor-studio.mjs does)
// and then loads the TypeScript worker.
// The ESM entry (the CommonJS one cannot load its own ESM half from an eval'd thread).
const TSX = pathToFileURL(
  createRequire(import.meta.url)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs"),
).href;
const WORKER = new URL("./node-worker.ts", import.meta.url).href;
const BOOT = `import(${JSON.stringify(TSX)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER)}); })`;

function spawnNodeWorker(): WorkerPort {
  const w = new Worker(BOOT, { eval: true, env: {}, stdout: true, stderr: true });
  // Nothing a program prints reaches the host's terminal (the harness captures it anyway).
  w.stdout.resume();
  w.stderr.resume();
  let failure: (message: string) => void = () => undefined;
  let terminated = false;
  w.on("error", (e: Error) => failure(e.message));
  w.on("exit", (code) => {
    if (!terminated) failure(`exited with code ${code}`);
  });
  return {
    post: (msg) => w.postMessage(msg),
    onMessage: (cb) => void w.on("message", cb),
    onFailure: (cb) => (failure = cb),
    terminate: () => {
      terminated = true;
      void w.terminate();
    },
  };
}

/** A sandbox of Pyodide interpreters in Node worker threads. */
export function createNodeSandbox(opts: Omit<PoolOptions, "spawn"> = {}): Sandbox {
  return createInterpreterPool({ ...opts, spawn: spawnNodeWorker });
}
