/**
 * The browser's interpreter worker (a module Web Worker started by browser.ts). Loads Pyodide from
 * the app's own `pyodide/` folder, reporting the bytes fetched, then removes the worker's network
 * and storage APIs before any program runs.
 */
import { loadPyodide } from "pyodide";
import { PYODIDE_ASSETS } from "virtual:pyodide-assets";
import type { RunMessage, WorkerMessage } from "./protocol.ts";
import { lockDownWorker, prepareInterpreter, SANDBOX_LOAD_OPTIONS } from "./runtime.ts";

const post = (m: WorkerMessage) => self.postMessage(m);
const total = PYODIDE_ASSETS.totalBytes;
let loaded = 0;
let lastPost = 0;

/** Counts the bytes of every response Pyodide fetches while it starts. */
const realFetch = self.fetch.bind(self);
self.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const res = await realFetch(input, init);
  if (!res.body) return res;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, ctl) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (now - lastPost > 100) {
        lastPost = now;
        post({ type: "progress", loaded, total: Math.max(total, loaded) });
      }
      ctl.enqueue(chunk);
    },
  });
  const { status, statusText, headers } = res;
  return new Response(res.body.pipeThrough(counter), { status, statusText, headers });
};

async function start() {
  const t0 = performance.now();
  try {
    const indexURL = new URL(PYODIDE_ASSETS.base, self.location.href).href;
    const py = await loadPyodide({ ...SANDBOX_LOAD_OPTIONS, indexURL });
    const runOne = prepareInterpreter(py);
    lockDownWorker(self);
    self.onmessage = (e: MessageEvent<RunMessage>) => post(runOne(e.data));
    post({ type: "progress", loaded, total: Math.max(total, loaded) });
    post({ type: "ready", loadMs: performance.now() - t0 });
  } catch (e: unknown) {
    post({ type: "fatal", message: e instanceof Error ? e.message : String(e) });
  }
}

void start();
