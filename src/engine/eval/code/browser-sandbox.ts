/**
 * The browser sandbox: one sandbox frame (browser-frame.ts: an opaque origin, no network, no
 * storage of the studio's) that compiles Pyodide's wasm once and starts a fresh worker for every
 * answer, which runs one interpreter made from the shared memory snapshot; the worker is ended
 * when the answer is done, so nothing a program plants reaches the next answer. The page talks to
 * each worker through a MessageChannel of that answer's own and believes nothing it says beyond
 * that answer (pool.ts checks every message); the frame itself never hears a worker. Import this
 * module lazily: creating the sandbox starts nothing; the first program (or `warm()`) fetches
 * Pyodide.
 */
import type { PoolOptions, Sandbox, WorkerPort } from "./pool.ts";
import { createInterpreterPool } from "./pool.ts";
import { sandboxFiles } from "./browser-assets.ts";
import { sandboxFrameDocument } from "./browser-frame.ts";

export interface BrowserSandboxOptions extends Omit<PoolOptions, "spawn" | "maxAnswers"> {
  /**
   * Test-only (the `/?sandbox-test` page): JavaScript appended to every frame's worker script, so
   * it runs in the worker's global scope as a program that escaped Python would.
   */
  escape?: string;
  /** Test-only: every message a frame sends, before it is checked. */
  observe?: (data: unknown) => void;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const WASM = "pyodide.asm.wasm";

interface Frame {
  /** Starts answer `id`'s worker on `port`, once the frame has compiled the wasm. */
  start(id: number, port: MessagePort): void;
  stop(id: number): void;
  /** `host-error` for worker `id` (it failed to start or threw), or the whole frame failed. */
  onFailure(id: number, cb: ((message: string) => void) | null): void;
  /** The download's progress, while the files load. */
  progress: Set<(loaded: number, total: number) => void>;
  /** The frame failed to load or compile: the next worker needs a new one. */
  broken(): boolean;
  remove(): void;
}

/**
 * The sandbox's one frame (browser-frame.ts): made on first use, handed the files once; it
 * compiles the wasm and starts a fresh worker for each answer. Nothing a worker does reaches it.
 */
function openFrame(opts: BrowserSandboxOptions): Frame {
  const failures = new Map<number, (message: string) => void>();
  const pending: [number, MessagePort][] = [];
  let control: MessagePort | null = null;
  let compiled = false;
  let broken: string | null = null;
  const failAll = (message: string) => {
    broken = message;
    for (const cb of [...failures.values()]) cb(message);
  };

  const frame = document.createElement("iframe");
  // Scripts only: no allow-same-origin (an opaque origin), no forms, popups or navigation.
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.style.display = "none";
  frame.srcdoc = sandboxFrameDocument();
  const loaded = new Promise<void>((resolve) =>
    frame.addEventListener("load", () => resolve(), { once: true }),
  );
  document.body.appendChild(frame);

  const listeners = new Set<(loaded: number, total: number) => void>();
  const progress = (n: number, total: number) => {
    for (const cb of listeners) cb(n, total);
  };
  Promise.all([sandboxFiles(progress), loaded])
    .then(([files]) => {
      const target = frame.contentWindow;
      if (!target) throw new Error("the sandbox frame did not open");
      const channel = new MessageChannel();
      control = channel.port1;
      control.onmessage = (e: MessageEvent<unknown>) => {
        const d = e.data as { type?: unknown; id?: unknown; message?: unknown } | null;
        if (d?.type === "compiled") {
          compiled = true;
          for (const [id, port] of pending.splice(0))
            control?.postMessage({ type: "start", id }, [port]);
        } else if (d?.type === "setup-failed")
          failAll(`the sandbox frame failed: ${String(d.message)}`);
        else if (d?.type === "host-error" && typeof d.id === "number")
          failures.get(d.id)?.(String(d.message));
      };
      target.postMessage("conductor-sandbox", "*", [channel.port2]);
      const host = opts.escape ? `${files.host}\n;${opts.escape}\n` : files.host;
      const { [WASM]: wasm, ...rest } = files.runtime;
      if (!wasm) throw new Error(`the sandbox's ${WASM} is missing`);
      control.postMessage({ type: "setup", host, wasm, files: rest });
    })
    .catch((e: unknown) => failAll(`The Python runtime could not be loaded: ${errorText(e)}`));

  return {
    start(id, port) {
      if (broken !== null) {
        const message = broken;
        queueMicrotask(() => failures.get(id)?.(message));
      } else if (compiled && control) control.postMessage({ type: "start", id }, [port]);
      else pending.push([id, port]);
    },
    stop(id) {
      failures.delete(id);
      const at = pending.findIndex(([p]) => p === id);
      if (at >= 0) pending.splice(at, 1);
      control?.postMessage({ type: "stop", id });
    },
    onFailure(id, cb) {
      if (cb) failures.set(id, cb);
      else failures.delete(id);
    },
    progress: listeners,
    broken: () => broken !== null,
    remove() {
      control?.close();
      frame.remove();
    },
  };
}

/** One answer's worker in the shared frame: its own MessageChannel, its own id. */
function spawnWorker(frame: Frame, id: number, opts: BrowserSandboxOptions): WorkerPort {
  let deliver: (data: unknown) => void = () => undefined;
  const channel = new MessageChannel();
  const port = channel.port1;
  port.onmessage = (e: MessageEvent<unknown>) => {
    opts.observe?.(e.data);
    deliver(e.data);
  };
  const progress = (loaded: number, total: number) => deliver({ type: "progress", loaded, total });
  frame.progress.add(progress);
  frame.start(id, channel.port2);
  return {
    post: (msg) => port.postMessage(msg),
    onMessage: (cb) => (deliver = cb),
    onFailure: (cb) => frame.onFailure(id, cb),
    terminate: () => {
      frame.progress.delete(progress);
      port.close();
      frame.stop(id);
    },
  };
}

/** A sandbox of Pyodide interpreters: one frame, a fresh worker per answer. */
export function createBrowserSandbox(opts: BrowserSandboxOptions = {}): Sandbox {
  const { escape, observe, ...pool } = opts;
  let frame: Frame | null = null;
  let next = 0;
  const frameOpts: BrowserSandboxOptions = {};
  if (escape !== undefined) frameOpts.escape = escape;
  if (observe) frameOpts.observe = observe;
  const sandbox = createInterpreterPool({
    ...pool,
    // One answer per worker: the pristine guarantee, whatever the program did to its realm.
    maxAnswers: 1,
    spawn: () => {
      if (frame?.broken()) frame.remove();
      if (!frame || frame.broken()) frame = openFrame(frameOpts);
      return spawnWorker(frame, next++, frameOpts);
    },
  });
  return {
    ...sandbox,
    dispose() {
      sandbox.dispose();
      frame?.remove();
      frame = null;
    },
  };
}
