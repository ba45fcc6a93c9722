/**
 * The worker side, shared by the Node worker thread and the browser Web Worker: prepares a loaded
 * Pyodide for untrusted programs and runs one request at a time.
 */
import type { PyodideAPI } from "pyodide";
import { HARNESS_PY } from "./harness.ts";
import type { RunMessage, WorkerMessage } from "./protocol.ts";
import type { RunOutcome } from "./types.ts";

/** Options for `loadPyodide` that keep the host out of the interpreter. */
export const SANDBOX_LOAD_OPTIONS = {
  // The `js` module is an empty object instead of the worker's global scope.
  jsglobals: Object.create(null) as object,
  // No host environment variables (the CLI's API keys live there).
  env: { HOME: "/home/pyodide" },
  stdout: () => undefined,
  stderr: () => undefined,
};

interface Heap {
  _module?: { HEAP8?: { buffer: ArrayBufferLike } };
}

function heapBytes(py: PyodideAPI): number {
  return (py as unknown as Heap)._module?.HEAP8?.buffer.byteLength ?? 0;
}

export type RunOne = (msg: RunMessage) => Extract<WorkerMessage, { type: "result" }>;

/**
 * Installs the harness and removes Pyodide's ways into JavaScript from the Python side: the `js`
 * and `pyodide_js` modules are unregistered and the JS objects Pyodide keeps in module globals
 * are dropped (no package loading or JS event loop is needed here).
 */
export function prepareInterpreter(py: PyodideAPI): RunOne {
  py.unregisterJsModule("js");
  py.unregisterJsModule("pyodide_js");
  py.runPython(`
import sys
for _k in ("js", "pyodide_js"):
    sys.modules.pop(_k, None)
for _mod, _name in (("pyodide.webloop", "scheduleCallback"), ("pyodide._package_loader", "loadedPackages")):
    if _mod in sys.modules and hasattr(sys.modules[_mod], _name):
        setattr(sys.modules[_mod], _name, None)
del _k, _mod, _name
`);
  const scope = py.toPy({}) as { get(k: string): unknown; destroy(): void };
  py.runPython(HARNESS_PY, { globals: scope as never });
  const run = scope.get("run") as (json: string) => string;
  let stdin = new Uint8Array(0);
  let offset = 0;
  // `open(0).read()` reads the emscripten stdin, not sys.stdin: serve the same bytes there.
  py.setStdin({
    read: (buffer: Uint8Array) => {
      const n = Math.min(buffer.length, stdin.length - offset);
      buffer.set(stdin.subarray(offset, offset + n));
      offset += n;
      return n;
    },
  });
  return (msg) => {
    stdin = new TextEncoder().encode(msg.request.mode === "stdio" ? msg.request.stdin : "");
    offset = 0;
    let outcome: RunOutcome;
    let broken = false;
    try {
      const json = run(JSON.stringify({ ...msg.request, outputBytes: msg.limits.outputBytes }));
      outcome = JSON.parse(json) as RunOutcome; // validated by the host (protocol.ts)
    } catch (e: unknown) {
      // The harness catches every Python exception; reaching here means Pyodide itself failed
      // (e.g. a stack overflow in WebAssembly). The interpreter cannot be trusted any more.
      broken = true;
      outcome = {
        status: "crashed",
        stdout: "",
        stderr: "",
        error: e instanceof Error ? e.message.split("\n")[0] : String(e),
        timeMs: 0,
      };
    }
    const heap = heapBytes(py);
    if (heap > msg.limits.memoryBytes && outcome.status === "ok")
      outcome = { ...outcome, status: "memory_limit", error: `used ${heap} bytes` };
    return { type: "result", id: msg.id, outcome, heapBytes: heap, broken };
  };
}

/**
 * Cuts the last routes out of the interpreter once Pyodide has loaded. Python code that finds a
 * JavaScript object despite the guard (Pyodide's converters stay reachable through module
 * globals) could climb `obj.constructor.constructor` to `Function` and run any JavaScript in the
 * worker's scope; the function constructors reached that way now throw. On top of that the scope
 * loses its network, storage and worker APIs (the browser's; Node's `process` stays, it is needed).
 */
export function lockDownWorker(scope: object): void {
  blockFunctionConstructors();
  removeWorkerApis(scope);
}

/** Deletes the network, storage and worker APIs from `scope` and its prototype chain. */
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
