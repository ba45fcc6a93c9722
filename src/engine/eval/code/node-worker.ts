/** The Node interpreter thread, started by node.ts. */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { loadPyodide } from "pyodide";
import type { RunMessage, WorkerMessage } from "./protocol.ts";
import { lockDownWorker, prepareInterpreter, SANDBOX_LOAD_OPTIONS } from "./runtime.ts";

const port = parentPort;
if (!port) throw new Error("node-worker.ts runs only as a worker thread");
const post = (m: WorkerMessage) => port.postMessage(m);

const indexURL = dirname(createRequire(import.meta.url).resolve("pyodide/package.json")) + "/";
const t0 = performance.now();
try {
  const py = await loadPyodide({ ...SANDBOX_LOAD_OPTIONS, indexURL });
  const runOne = prepareInterpreter(py);
  lockDownWorker(globalThis);
  port.on("message", (msg: RunMessage) => post(runOne(msg)));
  post({ type: "ready", loadMs: performance.now() - t0 });
} catch (e: unknown) {
  post({ type: "fatal", message: e instanceof Error ? e.message : String(e) });
}
