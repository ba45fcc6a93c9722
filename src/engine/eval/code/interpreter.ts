/**
 * One Pyodide interpreter as the sandbox uses it: made fresh from a memory snapshot for every
 * answer, with the host's capabilities cut at the WebAssembly boundary and limits that hold while
 * the program runs. Shared by the browser worker and the Node sandbox process (runtime.ts).
 *
 * - `system` (os.system, subprocess's fallback) is replaced at the import table: it fails with
 *   ENOSYS, in Node as in the browser.
 * - Output: every write to fd 1 and fd 2 (print, sys.stdout.buffer, os.write) reaches `capture`,
 *   which counts it against one budget. Past it the run ends as `output_limit` at once.
 * - Memory: growing the interpreter's memory past the limit is refused (Python sees MemoryError)
 *   and the run ends as `memory_limit` at once, even if the program catches the error.
 * - A WebAssembly stack overflow (deep recursion past the limit a program set) ends as a
 *   RecursionError, and the interpreter is thrown away.
 */
import type { PyodideAPI } from "pyodide";
import { HARNESS_PY } from "./harness.ts";
import type { RunMessage } from "./protocol.ts";
import type { RunStatus } from "./sandbox-types.ts";

/** A run's result as the worker posts it; the host validates it (protocol.ts) before use. */
export interface RawResult {
  type: "result";
  id: string;
  outcome: Record<string, unknown>;
  broken: boolean;
}

type LoadPyodide = (typeof import("pyodide"))["loadPyodide"];
type Imports = { env: Record<string, unknown> };
type Instantiate = (
  imports: Imports,
  done: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
) => unknown;
interface EmscriptenSettings {
  instantiateWasm?: Instantiate;
}

/** Options for `loadPyodide` that keep the host out of the interpreter. */
export const SANDBOX_LOAD_OPTIONS = {
  // The `js` module is an empty object instead of the worker's global scope.
  jsglobals: Object.create(null) as object,
  // No host environment variables (the CLI's API keys live there).
  env: { HOME: "/home/pyodide" },
  stdout: () => undefined,
  stderr: () => undefined,
};

// ---- the memory guard: one per realm, watching the memory of the interpreter that is running ----
let watched: WebAssembly.Memory | null = null;
let memoryLimit = Infinity;
let onMemoryRefused: (() => void) | null = null;
let guardInstalled = false;

function installMemoryGuard(): void {
  if (guardInstalled) return;
  guardInstalled = true;
  const proto = WebAssembly.Memory.prototype;
  // Taken off the prototype to be called with each memory as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const realGrow = proto.grow;
  Object.defineProperty(proto, "grow", {
    value: function (this: WebAssembly.Memory, pages: number): number {
      if (this === watched && this.buffer.byteLength + pages * 65536 > memoryLimit) {
        onMemoryRefused?.();
        throw new RangeError("the code sandbox's memory limit");
      }
      return realGrow.call(this, pages);
    },
    writable: false,
    configurable: false,
  });
}

/** Where `pyodide.asm.mjs` comes from: imported from `indexURL`, or handed in already loaded. */
export type AsmSource = (url: string) => Promise<unknown>;
const importAsm: AsmSource = (url) => import(/* @vite-ignore */ url);

/**
 * Loads interpreters: the first one cold (and snapshots it), every later one from the snapshot.
 * `asm` replaces the import of Pyodide's module script (the browser's frame has no network);
 * `module` is Pyodide's wasm already compiled (the browser's frame compiles it once for all its
 * workers), so no load here compiles it.
 */
export function interpreterFactory(
  loadPyodide: LoadPyodide,
  indexURL: string,
  asm = importAsm,
  module?: WebAssembly.Module,
) {
  installMemoryGuard();
  let compiled: WebAssembly.Module | null = module ?? null;
  let haveErrorImports = false;
  let errorImports: Record<string, unknown> = {};
  let lastMemory: WebAssembly.Memory | null = null;
  let realCreate: ((s: EmscriptenSettings) => Promise<unknown>) | null = null;

  // Pyodide's own instantiateWasm compiles the 10 MB module on every load; the wrapper compiles it
  // once, and replaces `system` in the import table whatever the platform.
  async function createPyodideModule(settings: EmscriptenSettings): Promise<unknown> {
    realCreate ??= (
      (await asm(`${indexURL}pyodide.asm.mjs`)) as {
        default: (s: EmscriptenSettings) => Promise<unknown>;
      }
    ).default;
    const inner = settings.instantiateWasm;
    settings.instantiateWasm = (imports, done) => {
      for (const key of Object.keys(imports.env))
        if (/(^|_)system$/.test(key)) imports.env[key] = (command: number) => (command ? -52 : 0);
      const finish = (instance: WebAssembly.Instance, module: WebAssembly.Module) => {
        const memory = instance.exports.memory;
        lastMemory = memory instanceof WebAssembly.Memory ? memory : null;
        done(instance, module);
      };
      if (compiled && haveErrorImports) {
        Object.assign(imports.env, errorImports);
        void WebAssembly.instantiate(compiled, imports as WebAssembly.Imports).then((i) =>
          finish(i, compiled as WebAssembly.Module),
        );
        return {};
      }
      if (compiled && inner) {
        // Pyodide's own function sets its two error imports on `env`, then waits for the wasm's
        // bytes, which never come (browser-worker.ts): take the imports as they are set.
        const given = compiled;
        const env = imports.env;
        let check: unknown;
        Object.defineProperty(env, "JsvError_Check", {
          get: () => check,
          set(value: unknown) {
            check = value;
            Object.defineProperty(env, "JsvError_Check", { value, writable: true });
            errorImports = {
              Jsv_GetError_import: env.Jsv_GetError_import,
              JsvError_Check: value,
            };
            haveErrorImports = true;
            void WebAssembly.instantiate(given, imports as WebAssembly.Imports).then((i) =>
              finish(i, given),
            );
          },
          configurable: true,
        });
        inner(imports, () => undefined);
        return {};
      }
      return inner?.(imports, (instance, module) => {
        compiled = module;
        const env = imports.env;
        errorImports = {
          Jsv_GetError_import: env.Jsv_GetError_import,
          JsvError_Check: env.JsvError_Check,
        };
        haveErrorImports = true;
        finish(instance, module);
      });
    };
    return realCreate(settings);
  }
  const base = { ...SANDBOX_LOAD_OPTIONS, indexURL, createPyodideModule } as never;

  return {
    /** A cold start: the interpreter with the harness loaded, as a memory snapshot. */
    async snapshot(): Promise<Uint8Array> {
      const py = await loadPyodide({ ...(base as object), _makeSnapshot: true });
      py.runPython(
        "import sys, types\n" +
          "_m = types.ModuleType('_conductor_harness')\n" +
          `exec(${JSON.stringify(HARNESS_PY)}, _m.__dict__)\n` +
          "sys.modules['_conductor_harness'] = _m\ndel _m, sys, types",
      );
      return py.makeMemorySnapshot();
    },
    /** A pristine interpreter from the snapshot, ready to run one answer's programs. */
    async fresh(snapshot: Uint8Array): Promise<Interpreter> {
      const py = await loadPyodide({ ...(base as object), _loadSnapshot: snapshot });
      return prepare(py, lastMemory);
    },
  };
}

export interface Interpreter {
  /** Runs one program; `early` is called at once when a limit ends the run while it still runs. */
  run(msg: RunMessage, early: (r: RawResult) => void): RawResult;
}

function prepare(py: PyodideAPI, memory: WebAssembly.Memory | null): Interpreter {
  py.unregisterJsModule("js");
  py.unregisterJsModule("pyodide_js");
  const run = py.runPython(
    "import sys\n" +
      "for _k in ('js', 'pyodide_js'):\n    sys.modules.pop(_k, None)\n" +
      "for _mod, _name in (('pyodide.webloop', 'scheduleCallback'), ('pyodide._package_loader', 'loadedPackages')):\n" +
      "    if _mod in sys.modules and hasattr(sys.modules[_mod], _name):\n" +
      "        setattr(sys.modules[_mod], _name, None)\n" +
      "_h = sys.modules.pop('_conductor_harness')\n_h._install()\n_h.run",
  ) as (json: string) => string;
  py.runPython("del _h, _k, _mod, _name, sys");

  let stdin = new Uint8Array(0);
  let offset = 0;
  // `open(0).read()` reads the Emscripten stdin, not sys.stdin: serve the same bytes there.
  py.setStdin({
    read: (buffer: Uint8Array) => {
      const n = Math.min(buffer.length, stdin.length - offset);
      buffer.set(stdin.subarray(offset, offset + n));
      offset += n;
      return n;
    },
  });
  const out: Uint8Array[][] = [[], []];
  let budget = 0;
  let limitHit: RunStatus | null = null;
  let onLimit: (status: RunStatus) => void = () => undefined;
  // Past the budget every write fails (Python sees OSError), so a printing loop ends at once;
  // the run is reported as output_limit whatever the program does with the error.
  const capture = (fd: 0 | 1) => (buffer: Uint8Array) => {
    if (limitHit) throw new Error("the code sandbox's output limit");
    const keep = Math.min(buffer.length, budget);
    out[fd]?.push(buffer.slice(0, keep));
    budget -= keep;
    if (keep < buffer.length) {
      onLimit("output_limit");
      throw new Error("the code sandbox's output limit");
    }
    return buffer.length;
  };
  py.setStdout({ write: capture(0) });
  py.setStderr({ write: capture(1) });
  const decoder = new TextDecoder();
  const text = (parts: Uint8Array[] = []) => {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) all.set(p, (at += p.length) - p.length);
    return decoder.decode(all);
  };

  return {
    run(msg, early) {
      stdin = new TextEncoder().encode(msg.request.mode === "stdio" ? msg.request.stdin : "");
      offset = 0;
      out[0] = [];
      out[1] = [];
      budget = msg.limits.outputBytes;
      limitHit = null;
      const t0 = performance.now();
      const result = (outcome: Record<string, unknown>, broken: boolean): RawResult => ({
        type: "result",
        id: msg.id,
        outcome: {
          ...outcome,
          stdout: text(out[0]),
          stderr: text(out[1]).slice(0, 4000),
          timeMs: performance.now() - t0,
        },
        broken,
      });
      onLimit = (status) => {
        if (limitHit) return;
        limitHit = status;
        early(result({ status }, true));
      };
      watched = memory;
      memoryLimit = msg.limits.memoryBytes;
      onMemoryRefused = () => onLimit("memory_limit");
      try {
        const json = run(JSON.stringify({ ...msg.request, valueBytes: msg.limits.outputBytes }));
        if (limitHit) return result({ status: limitHit }, true);
        const fields: unknown = JSON.parse(json);
        return typeof fields === "object" && fields !== null && !Array.isArray(fields)
          ? result(fields as Record<string, unknown>, false)
          : result({ status: "crashed", error: "the harness returned no result" }, true);
      } catch (e: unknown) {
        // The harness catches every Python exception; reaching here means Pyodide itself failed.
        const message = e instanceof Error ? e.message : String(e);
        if (limitHit) return result({ status: limitHit }, true);
        if (/Maximum call stack size exceeded|stack overflow/i.test(message))
          return result(
            {
              status: "runtime_error",
              error:
                "RecursionError: maximum recursion depth exceeded (the interpreter's stack overflowed)",
            },
            true,
          );
        return result({ status: "crashed", error: message.split("\n")[0] ?? "" }, true);
      } finally {
        watched = null;
        onMemoryRefused = null;
      }
    },
  };
}
