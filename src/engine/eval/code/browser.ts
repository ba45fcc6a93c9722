/**
 * The browser sandbox: interpreters in module Web Workers (browser-worker.ts). Import this module
 * lazily: creating the sandbox starts nothing; the first program (or `warm()`) fetches Pyodide.
 */
import type { PoolOptions, Sandbox, WorkerPort } from "./pool.ts";
import { createInterpreterPool } from "./pool.ts";

function spawnBrowserWorker(): WorkerPort {
  const w = new Worker(new URL("./browser-worker.ts", import.meta.url), { type: "module" });
  let failure: (message: string) => void = () => undefined;
  w.addEventListener("error", (ev) => failure(ev.message || "the worker failed to load"));
  return {
    post: (msg) => w.postMessage(msg),
    onMessage: (cb) => w.addEventListener("message", (ev: MessageEvent<unknown>) => cb(ev.data)),
    onFailure: (cb) => (failure = cb),
    terminate: () => w.terminate(),
  };
}

/** A sandbox of Pyodide interpreters in Web Workers. */
export function createBrowserSandbox(opts: Omit<PoolOptions, "spawn"> = {}): Sandbox {
  return createInterpreterPool({ ...opts, spawn: spawnBrowserWorker });
}
