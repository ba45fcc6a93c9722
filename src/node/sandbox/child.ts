/**
 * The sandbox process's entry (bundled into one script by process.ts and run as `node -e`). It
 * runs under Node's permission model with an empty environment: it may read Pyodide's files and
 * nothing else, and may start no process and no worker. Before any program runs it also gives up
 * what the permission model does not cover: Node's module loaders, `process.binding`, `fetch`,
 * `eval` and the function constructors. Its only channel is the IPC pipe to the CLI.
 */
import { constants as fsConstants, readFileSync, writeSync } from "node:fs";
import type { HostMessage } from "../../engine/eval/code/protocol.ts";
import type { ChildInit } from "./process.ts";
import { ESCAPE_MARKER } from "./native-main.ts";
import { lockDownWorker, serveInterpreters } from "../../engine/eval/code/runtime.ts";

type Send = (message: unknown) => void;
const send = process.send?.bind(process) as Send | undefined;
if (!send) throw new Error("the sandbox process runs only as a child with an IPC channel");
const indexURL = process.argv.at(-1) ?? "";

// Emscripten's Node file-system layer reads fs constants through process.binding, which the
// permission model refuses; it gets the constants and nothing else.
const binding = (name: string) => {
  if (name === "constants") return { fs: fsConstants };
  throw new Error(`process.binding(${name}) is not available in the code sandbox`);
};
Object.defineProperty(process, "binding", { value: binding, configurable: true, writable: true });
// Only the IPC channel's own variables were passed; they are not the program's business.
for (const k of Object.keys(process.env)) Reflect.deleteProperty(process.env, k);

function lockDown() {
  lockDownWorker(globalThis);
  const p = process as unknown as Record<string, unknown>;
  for (const name of ["getBuiltinModule", "dlopen", "_linkedBinding", "mainModule"])
    if (name in p) Reflect.deleteProperty(p, name);
  p.binding = binding;
}

const { loadPyodide } = (await import(`${indexURL}pyodide.mjs`)) as typeof import("pyodide");
/**
 * A limit that ends a run while the program still runs is also written to stdout, synchronously:
 * the IPC message would wait for the busy event loop, and the host acts on whichever comes first.
 * Programs cannot write there (their output is captured in JavaScript).
 */
function post(m: unknown) {
  const r = m as {
    type?: string;
    broken?: boolean;
    outcome?: { status?: string; stdout?: string };
  };
  if (r.type === "result" && r.broken && /_limit$/.test(r.outcome?.status ?? "")) {
    const outcome = { ...r.outcome, stdout: (r.outcome?.stdout ?? "").slice(0, 2000) };
    writeSync(1, `${JSON.stringify({ ...r, outcome })}\n`);
  }
  send?.(m);
}
const handle = serveInterpreters({ loadPyodide, indexURL, post, lockDown });
// The test-only escape hook (process.ts): JavaScript run in this process's scope, as a program
// that got out of Pyodide would run it. The constructor is kept before the lockdown takes it.
const hook = process.argv.includes("escape-hook");
const RealFunction = Function;
async function escape(m: Extract<HostMessage, { type: "run" }>) {
  let status = "ok";
  let error: string | undefined;
  try {
    const { js } = JSON.parse(m.request.code.slice(ESCAPE_MARKER.length)) as { js: string };
    await (new RealFunction(`return (async () => {\n${js}\n})()`) as () => Promise<unknown>)();
  } catch (e) {
    status = "runtime_error";
    error = String(e);
  }
  const outcome = { status, stdout: "", stderr: "", timeMs: 0, ...(error ? { error } : {}) };
  post({ type: "result", id: m.id, outcome, broken: false });
}
process.on("message", (m: HostMessage | ChildInit) => {
  if (hook && m.type === "run" && m.request.code.startsWith(ESCAPE_MARKER)) return void escape(m);
  // A later process starts from the file the first process's snapshot was written to.
  if (m.type === "init" && "snapshotFile" in m)
    handle({ type: "init", snapshot: new Uint8Array(readFileSync(m.snapshotFile)) });
  else handle(m);
});
// The host ends this process by closing the channel or by a kill.
process.on("disconnect", () => process.exit(0));
