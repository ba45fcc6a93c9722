/**
 * The worker side, shared by the Node sandbox process and the browser Web Worker: answers the
 * host's messages (protocol.ts) with one pristine interpreter per answer. The first interpreter
 * starts cold and is snapshotted before any program runs; after each answer ("reset") the used
 * interpreter is dropped and a fresh one made from that snapshot.
 */
import type { HostMessage } from "./protocol.ts";
import type { AsmSource, Interpreter, RawResult } from "./interpreter.ts";
import { interpreterFactory } from "./interpreter.ts";

export { SANDBOX_LOAD_OPTIONS } from "./interpreter.ts";

export interface WorkerPlatform {
  loadPyodide: Parameters<typeof interpreterFactory>[0];
  indexURL: string;
  /** Loads `pyodide.asm.mjs` instead of importing it from `indexURL`. */
  asm?: AsmSource;
  /** Pyodide's wasm, already compiled (the browser's frame compiles it once). */
  module?: WebAssembly.Module;
  post(message: unknown): void;
  /** Called before every load: gives back what a load needs and the lockdown removed. */
  beforeLoad?(): void;
  /** Called after every load, before any program runs. */
  lockDown(): void;
}

/** Serves the host's messages in order; returns the handler to feed them to. */
export function serveInterpreters(platform: WorkerPlatform): (msg: HostMessage) => void {
  const factory = interpreterFactory(
    platform.loadPyodide,
    platform.indexURL,
    platform.asm,
    platform.module,
  );
  let snapshot: Uint8Array | null = null;
  let current: Interpreter | null = null;
  let chain: Promise<void> = Promise.resolve();
  const post = (m: unknown) => platform.post(m);

  async function load(t0: number) {
    current = null;
    platform.beforeLoad?.();
    try {
      if (!snapshot) throw new Error("no snapshot to start from");
      current = await factory.fresh(snapshot);
    } finally {
      platform.lockDown();
    }
    post({ type: "ready", loadMs: performance.now() - t0 });
  }

  async function handle(msg: HostMessage) {
    if (msg.type === "init") {
      const t0 = performance.now();
      if (msg.snapshot instanceof Uint8Array) snapshot = msg.snapshot;
      else {
        snapshot = await factory.snapshot();
        post({ type: "snapshot", bytes: snapshot });
      }
      await load(t0);
    } else if (msg.type === "reset") await load(performance.now());
    else if (msg.type === "run") {
      if (!current) {
        post({
          type: "result",
          id: msg.id,
          outcome: {
            status: "crashed",
            stdout: "",
            stderr: "",
            error: "no interpreter",
            timeMs: 0,
          },
          broken: true,
        } satisfies RawResult);
        return;
      }
      let early = false;
      const r = current.run(msg, (first) => {
        early = true;
        post(first);
      });
      if (!early) post(r);
      if (r.broken) current = null;
    }
  }

  return (msg) => {
    chain = chain
      .then(() => handle(msg))
      .catch((e: unknown) =>
        post({ type: "fatal", message: e instanceof Error ? e.message : String(e) }),
      );
  };
}

/**
 * Cuts the last routes out of the interpreter once Pyodide has loaded. Python code that finds a
 * JavaScript object despite the guard (Pyodide's converters stay reachable through module
 * globals) could climb `obj.constructor.constructor` to `Function` and run any JavaScript in the
 * worker's scope; the function constructors reached that way throw, and so does `eval`. On top of
 * that the scope loses its network, storage and worker APIs.
 */
export function lockDownWorker(scope: object): void {
  blockFunctionConstructors();
  removeWorkerApis(scope);
}

/** Deletes the network, storage, module and worker APIs from `scope` and its prototype chain. */
export function removeWorkerApis(scope: object): void {
  const names = [
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "WebSocketStream",
    "WebTransport",
    "EventSource",
    "indexedDB",
    "caches",
    "importScripts",
    "Worker",
    "SharedWorker",
    "BroadcastChannel",
    "Request",
    // Pyodide's Node start-up leaves its module table (fs, ws, child_process) here.
    "require",
    "eval",
  ];
  for (
    let o: object | null = scope;
    o && o !== Object.prototype;
    o = Object.getPrototypeOf(o) as object | null
  ) {
    for (const name of names) {
      const desc = Object.getOwnPropertyDescriptor(o, name);
      if (desc?.configurable) Reflect.deleteProperty(o, name);
      else if (desc?.writable) Reflect.set(o, name, undefined);
    }
  }
}

const FUNCTION_KINDS = [
  function () {},
  async function () {},
  function* () {},
  async function* () {},
];

let constructorsBlocked = false;

/** Only ever called in an interpreter worker: it changes the realm's built-in prototypes. */
function blockFunctionConstructors(): void {
  if (constructorsBlocked) return;
  constructorsBlocked = true;
  for (const sample of FUNCTION_KINDS) {
    const proto = Object.getPrototypeOf(sample) as { constructor: { name: string } };
    const name = proto.constructor.name;
    // Keeps its name, so `f.constructor.name === "AsyncFunction"` checks still work.
    const blocked = {
      [name]: function () {
        throw new TypeError("Function constructors are disabled in the code sandbox.");
      },
    }[name];
    Object.defineProperty(proto, "constructor", {
      value: blocked,
      writable: false,
      configurable: false,
    });
  }
}
