/**
 * wllama (llama.cpp in WebAssembly) in Node. wllama is written for browsers: it starts its engine
 * in a module Web Worker made from a blob URL, reads `navigator` and `self.location`, and its
 * default build needs JSPI and 64-bit memory, which Node 20 lacks. So this module gives it the few
 * globals it reads, a `Worker` made of a `worker_threads` worker (the blob's code, run as a script
 * with `postMessage`/`onmessage` wired to the thread's port), and its compat build (Asyncify,
 * 32-bit memory) from `@wllama/wllama-compat`, on one thread. No network: the wasm is read from disk.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { resolveObjectURL } from "node:buffer";
import { Worker as ThreadWorker } from "node:worker_threads";
import type { Wllama as WllamaType } from "@wllama/wllama";
import type { StorageBackend } from "@wllama/wllama/esm/storage/index.js";

type Listener = ((e: { data: unknown }) => void) | null;

/** Runs a blob URL's script in a worker thread, as a Web Worker would. */
class BlobWorker {
  onmessage: Listener = null;
  onerror: ((e: unknown) => void) | null = null;
  private thread: ThreadWorker | undefined;
  private queue: { data: unknown; transfer?: unknown[] }[] = [];
  private ended = false;

  constructor(url: string | URL) {
    const blob = resolveObjectURL(String(url));
    if (!blob) throw new Error(`no blob at ${String(url)}`);
    void blob.text().then((code) => {
      if (this.ended) return;
      this.thread = new ThreadWorker(PRELUDE + code, { eval: true });
      this.thread.on("message", (data: unknown) => this.onmessage?.({ data }));
      this.thread.on("error", (e) => this.onerror?.(e));
      for (const m of this.queue) this.send(m.data, m.transfer);
      this.queue = [];
    });
  }

  postMessage(data: unknown, transfer?: unknown[]): void {
    if (this.thread) this.send(data, transfer);
    else this.queue.push({ data, transfer });
  }

  private send(data: unknown, transfer?: unknown[]): void {
    // Node transfers ArrayBuffers; the Blobs wllama also lists are cloned.
    const items: unknown[] = Array.isArray(transfer) ? transfer : [];
    const list = items.filter((t) => t instanceof ArrayBuffer);
    this.thread?.postMessage(data, list);
  }

  terminate(): void {
    this.ended = true;
    // The engine's thread can take a while to stop; it must not hold the process open meanwhile.
    this.thread?.unref();
    void this.thread?.terminate();
  }
}

// The Web Worker globals the engine's worker script uses, on the thread's port.
const PRELUDE = `
const { parentPort: __port } = require("node:worker_threads");
globalThis.postMessage = (data, transfer) =>
  __port.postMessage(data, (Array.isArray(transfer) ? transfer : []).filter((t) => t instanceof ArrayBuffer));
// No WebGPU here: llama.cpp asks for an adapter, gets none and runs on the CPU.
globalThis.navigator = { gpu: { requestAdapter: async () => null }, hardwareConcurrency: 1 };
__port.on("message", (data) => globalThis.onmessage && globalThis.onmessage({ data }));
`;

const none = () => Promise.reject(new Error("no download cache in the CLI"));
const NO_STORAGE: StorageBackend = {
  isSupported: () => true,
  read: none,
  write: none,
  getSize: none,
  list: none,
  delete: none,
};

let installed = false;

/** Gives wllama the browser globals it reads (once per process). */
function installGlobals(): void {
  if (installed) return;
  installed = true;
  // V8 compiles llama.cpp's wasm on background threads, and a process that is done waits for
  // those jobs before it ends (20-40 s after the answer on a 2-core machine, even through
  // process.exit). With no background tasks, the compile happens while the model loads instead.
  setFlagsFromString("--wasm-num-compilation-tasks=0");
  const g = globalThis as Record<string, unknown>;
  g.navigator ??= { userAgent: "Node.js", hardwareConcurrency: availableParallelism() };
  g.self ??= globalThis;
  g.location ??= { href: pathToFileURL(`${process.cwd()}/`).href };
  g.Worker = BlobWorker;
}

/** A wllama instance that runs in this Node process, on the CPU. */
export async function nodeWllama(): Promise<WllamaType> {
  installGlobals();
  const require = createRequire(import.meta.url);
  const compatJs = require.resolve("@wllama/wllama-compat/wasm/wllama.js");
  const compatWasm = require.resolve("@wllama/wllama-compat/wasm/wllama.wasm");
  const { Wllama, LoggerWithoutDebug, CacheManager } = await import("@wllama/wllama");
  const wllama = new Wllama(
    { default: pathToFileURL(compatWasm).href },
    {
      suppressNativeLog: true,
      logger: { ...LoggerWithoutDebug, warn: () => {} },
      // The CLI loads files from disk; wllama's download cache (browser storage) stays unused.
      cacheManager: new CacheManager([NO_STORAGE]),
    },
  );
  wllama.setCompat(
    { worker: { code: readFileSync(compatJs, "utf8") }, wasm: pathToFileURL(compatWasm).href },
    "safari",
  );
  return wllama;
}
