/**
 * The browser's interpreter worker. Not bundled by Vite: src/node/vite/pyodide-assets.ts bundles
 * it with Pyodide into `sandbox-host.js`, which a sandbox frame (browser-frame.ts) starts from a
 * blob, one frame per answer. The frame has no network, so the first message carries Pyodide's
 * files as bytes; `fetch` inside the worker serves only those (and only while an interpreter
 * loads). Then it answers the pool's messages (runtime.ts) and locks its scope down.
 */
import { loadPyodide } from "pyodide";
import * as pyodideAsm from "virtual:pyodide-asm";
import type { HostMessage } from "./protocol.ts";
import { lockDownWorker, serveInterpreters } from "./runtime.ts";

/** Never fetched: `fetch` below answers every request under it from the files handed in. */
const INDEX_URL = "https://pyodide.sandbox.invalid/";
const TYPES: Record<string, string> = { wasm: "application/wasm", json: "application/json" };

const files = new Map<string, Uint8Array<ArrayBuffer>>();
const FileResponse = Response;
const servedFetch = (input: RequestInfo | URL): Promise<Response> => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const name = url.startsWith(INDEX_URL) ? url.slice(INDEX_URL.length) : "";
  const bytes = files.get(name);
  if (!bytes) return Promise.reject(new TypeError(`The code sandbox has no file ${url}`));
  const type = TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
  return Promise.resolve(new FileResponse(bytes, { headers: { "Content-Type": type } }));
};

const post = (m: unknown) => self.postMessage(m);
let handle: ((m: HostMessage) => void) | null = null;

self.onmessage = (e: MessageEvent<unknown>) => {
  if (handle) {
    handle(e.data as HostMessage);
    return;
  }
  const first = e.data as { files?: Record<string, unknown> } | null;
  for (const [name, bytes] of Object.entries(first?.files ?? {}))
    if (bytes instanceof Uint8Array) files.set(name, bytes as Uint8Array<ArrayBuffer>);
  // The cold start (the snapshot) loads before the first `beforeLoad`.
  self.fetch = servedFetch;
  handle = serveInterpreters({
    loadPyodide,
    indexURL: INDEX_URL,
    asm: () => Promise.resolve(pyodideAsm),
    post,
    beforeLoad: () => {
      self.fetch = servedFetch;
    },
    lockDown: () => lockDownWorker(self),
  });
};
