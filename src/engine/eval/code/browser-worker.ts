/**
 * The browser's interpreter worker. Not bundled by Vite: src/node/vite/pyodide-assets.ts bundles
 * it with Pyodide into `sandbox-host.js`, which the sandbox frame (browser-frame.ts) starts from a
 * blob, one worker per answer. The frame has no network, so its one message carries Pyodide's
 * wasm compiled and its other files as bytes; `fetch` inside the worker serves only those (and
 * only while an interpreter loads). Then it answers the pool's messages (runtime.ts) on its
 * answer's own port and locks its scope down.
 */
import { loadPyodide } from "pyodide";
import * as pyodideAsm from "virtual:pyodide-asm";
import type { HostMessage } from "./protocol.ts";
import type { WorkerPlatform } from "./runtime.ts";
import { lockDownWorker, serveInterpreters } from "./runtime.ts";

/** Never fetched: `fetch` below answers every request under it from the files handed in. */
const INDEX_URL = "https://pyodide.sandbox.invalid/";
const WASM = "pyodide.asm.wasm";
const TYPES: Record<string, string> = { wasm: "application/wasm", json: "application/json" };

const files = new Map<string, Uint8Array<ArrayBuffer>>();
const FileResponse = Response;
// With a compiled module handed in, Pyodide's own loader still asks for the wasm's bytes; it gets
// an answer that never comes, and never compiles them (interpreter.ts).
const never = new Promise<Response>(() => undefined);
const servedFetch = (input: RequestInfo | URL): Promise<Response> => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const name = url.startsWith(INDEX_URL) ? url.slice(INDEX_URL.length) : "";
  const bytes = files.get(name);
  if (!bytes && name === WASM) return never;
  if (!bytes) return Promise.reject(new TypeError(`The code sandbox has no file ${url}`));
  const type = TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
  return Promise.resolve(new FileResponse(bytes, { headers: { "Content-Type": type } }));
};

/**
 * The frame's one message to this worker: the compiled wasm, this worker's own copies of the
 * other files, and the port of this worker's answer, the only one it speaks on.
 */
self.onmessage = (e: MessageEvent<unknown>) => {
  self.onmessage = null;
  const start = e.data as { module?: unknown; files?: Record<string, unknown>; port?: unknown };
  const port = start.port;
  if (!(port instanceof MessagePort)) return;
  for (const [name, bytes] of Object.entries(start.files ?? {}))
    if (bytes instanceof Uint8Array) files.set(name, bytes as Uint8Array<ArrayBuffer>);
  // The cold start (the snapshot) loads before the first `beforeLoad`.
  self.fetch = servedFetch;
  const platform: WorkerPlatform = {
    loadPyodide,
    indexURL: INDEX_URL,
    asm: () => Promise.resolve(pyodideAsm),
    post: (m: unknown) => port.postMessage(m),
    beforeLoad: () => {
      self.fetch = servedFetch;
    },
    lockDown: () => lockDownWorker(self),
  };
  if (start.module instanceof WebAssembly.Module) platform.module = start.module;
  const handle = serveInterpreters(platform);
  port.onmessage = (m: MessageEvent<unknown>) => handle(m.data as HostMessage);
};
