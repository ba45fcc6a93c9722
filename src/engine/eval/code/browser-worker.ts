/**
 * The browser's interpreter worker (a module Web Worker started by browser.ts). Loads Pyodide from
 * the app's own `pyodide/` folder, reporting the bytes fetched, and removes the worker's network
 * and storage APIs before any program runs. Each answer gets a fresh interpreter from a memory
 * snapshot (runtime.ts); only while one loads is the worker's own fetch given back.
 */
import { loadPyodide } from "pyodide";
import { PYODIDE_ASSETS } from "virtual:pyodide-assets";
import type { HostMessage } from "./protocol.ts";
import { lockDownWorker, serveInterpreters } from "./runtime.ts";

const post = (m: unknown) => self.postMessage(m);
const total = PYODIDE_ASSETS.totalBytes;
let loaded = 0;
let lastPost = 0;

/** Counts the bytes of every response Pyodide fetches while it starts. */
const realFetch = self.fetch.bind(self);
const countingFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
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

const handle = serveInterpreters({
  loadPyodide,
  indexURL: new URL(PYODIDE_ASSETS.base, self.location.href).href,
  post,
  beforeLoad: () => {
    self.fetch = countingFetch;
  },
  lockDown: () => {
    post({ type: "progress", loaded, total: Math.max(total, loaded) });
    lockDownWorker(self);
  },
});
self.onmessage = (e: MessageEvent<HostMessage>) => handle(e.data);
