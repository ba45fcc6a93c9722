/**
 * The confined runtime's processes: `python3` inside bubblewrap (confine.ts) runs a zygote
 * (native-main.ts) that forks one process per answer and never gives a process a second answer.
 * Zygotes are started ahead of demand (a standby of a few), so neither the first answer nor the
 * replacement of a killed sandbox waits for a start; an answer after a clean one waits only for
 * a fork.
 *
 * The host keeps what the program cannot reach: the per-test wall limit (the pool kills the
 * whole sandbox, zygote included), the output limit (counted here on the frames, whatever path
 * the program writes by: a file descriptor, /dev/stdout, a C library call), and the verdict (the
 * pool schema-checks the fields and the scorer judges them). The address-space limit is the
 * kernel's (RLIMIT_AS, set in the answer's process only).
 */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import type { HostMessage } from "../../engine/eval/code/protocol.ts";
import type { WorkerPort } from "../../engine/eval/code/pool.ts";
import type { Confinement } from "./confine.ts";
import { PYTHON_FLAGS, bwrapArgs, seccompFile } from "./confine.ts";
import { nativeScript } from "./native-main.ts";

/** One sandbox (a zygote): ready once its answer's process is forked; `send` a request line. */
interface Proc {
  child: ChildProcess;
  ready: boolean;
  exited: boolean;
  /** Its answer's process ended, or a limit killed it: only a new sandbox runs the next answer. */
  spent: boolean;
  onReady: (() => void) | null;
  onExit: ((signal: string | null, code: number | null) => void) | null;
  onResult: ((line: string) => void) | null;
  onData: ((fd: 1 | 2, chunk: Buffer) => void) | null;
  stderrTail: string;
}

/** Longest result line: a value's JSON is capped by the harness at the output limit. */
const RESULT_LINE_MAX = 16 << 20;

let script: string | null = null;

/** The zygote's frames (native-main.ts): kind byte, 4-byte big-endian length, payload. */
function readFrames(p: Proc, onFrame: (kind: number, payload: Buffer) => void) {
  let buf: Buffer = Buffer.alloc(0);
  p.child.stdio[3]?.on("data", (d: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    while (buf.length >= 5) {
      const len = buf.readUInt32BE(1);
      if (buf.length < 5 + len) break;
      const kind = buf[0] ?? 0;
      const payload = buf.subarray(5, 5 + len);
      buf = buf.subarray(5 + len);
      onFrame(kind, payload);
    }
  });
}

function start(c: Confinement, hook: boolean): Proc {
  const fd = openSync(seccompFile(), "r");
  let child: ChildProcess;
  try {
    script ??= nativeScript();
    const args = [...bwrapArgs(c), c.python, ...PYTHON_FLAGS, "-c", script];
    if (hook) args.push("--escape-hook");
    child = spawn(c.bwrap, args, { env: {}, stdio: ["pipe", "ignore", "pipe", "pipe", fd] });
  } finally {
    closeSync(fd);
  }
  const p: Proc = {
    child,
    ready: false,
    exited: false,
    spent: false,
    onReady: null,
    onExit: null,
    onResult: null,
    onData: null,
    stderrTail: "",
  };
  let lines = "";
  readFrames(p, (kind, payload) => {
    if (kind === 1 || kind === 2) p.onData?.(kind, payload);
    else if (kind === 3) {
      lines += payload.toString("utf8");
      let at: number;
      while ((at = lines.indexOf("\n")) >= 0) {
        const line = lines.slice(0, at);
        lines = lines.slice(at + 1);
        p.onResult?.(line);
      }
      // A line past any honest size: the process is flooding its result channel.
      if (lines.length > RESULT_LINE_MAX) {
        lines = "";
        p.onResult?.("");
      }
    } else if (kind === 4) {
      lines = "";
      p.ready = true;
      p.onReady?.();
    } else if (kind === 5) {
      p.spent = true;
      const how = JSON.parse(payload.toString("utf8")) as { signal: string | null; code: number };
      p.onExit?.(how.signal, how.code);
    }
  });
  child.stderr?.on("data", (d: Buffer) => {
    p.stderrTail = (p.stderrTail + d.toString()).slice(-2000);
  });
  child.stdin?.on("error", () => undefined);
  child.on("error", (e) => {
    p.stderrTail += e.message;
  });
  child.on("exit", (code, signal) => {
    p.exited = true;
    p.spent = true;
    p.onExit?.(signal, code);
  });
  return p;
}

const kill = (p: Proc) => {
  p.spent = true;
  if (!p.exited) p.child.kill("SIGKILL");
};

/** Processes started ahead of demand, each handed out once. */
export interface Standby {
  take(): Proc;
  dispose(): void;
}

export function createStandby(c: Confinement, hook: boolean, size: number): Standby {
  const idle: Proc[] = [];
  let disposed = false;
  const fill = () => {
    while (!disposed && idle.length < size) {
      const p = start(c, hook);
      idle.push(p);
      p.onExit = () => {
        const i = idle.indexOf(p);
        if (i >= 0) idle.splice(i, 1);
      };
    }
  };
  return {
    take() {
      // the readiest first: one whose harness already said "ready"
      const i = Math.max(
        0,
        idle.findIndex((p) => p.ready),
      );
      const p = idle.splice(i, 1)[0] ?? start(c, hook);
      p.onExit = null;
      setImmediate(fill);
      return p;
    },
    dispose() {
      disposed = true;
      for (const p of idle.splice(0)) kill(p);
    },
  };
}

const failed = (p: Proc, signal: string | null, code: number | null) => {
  const tail = p.stderrTail.trim().split("\n").at(-1) ?? "";
  return `the sandbox process exited with ${signal ?? `code ${code}`}${tail ? `: ${tail.slice(0, 300)}` : ""}`;
};

/**
 * A WorkerPort over the standby: "init" and "reset" take a fresh process (a reset ends the used
 * one), "run" sends one test. The pool's snapshot step has nothing to carry here: the first init
 * answers with an empty snapshot, so the pool fills all its slots at once.
 */
export function nativePort(standby: Standby): WorkerPort {
  let onMessage: (data: unknown) => void = () => undefined;
  let failure: (message: string) => void = () => undefined;
  let proc: Proc | null = null;
  let terminated = false;

  function fresh() {
    let p: Proc;
    if (proc && !proc.spent) {
      // a clean answer: the same sandbox forks the next answer's process, after this one's end
      p = proc;
      p.ready = false;
      p.child.stdin?.write('{"type":"next"}\n');
    } else {
      if (proc) kill(proc);
      p = standby.take();
    }
    proc = p;
    const t0 = performance.now();
    const ready = () => onMessage({ type: "ready", loadMs: performance.now() - t0 });
    p.onExit = (signal, code) => {
      if (!terminated && proc === p) failure(failed(p, signal, code));
    };
    if (p.ready) queueMicrotask(ready);
    else p.onReady = ready;
  }

  function run(m: Extract<HostMessage, { type: "run" }>) {
    const p = proc;
    if (!p?.ready) return failure("no sandbox process");
    const t0 = performance.now();
    const mark = Buffer.from(`\0${m.id}\0`);
    const got: Buffer[][] = [[], []];
    const done = [false, false];
    let bytes = 0;
    let fields: Record<string, unknown> | null = null;
    let over = false;
    const text = (i: number) => new TextDecoder().decode(Buffer.concat(got[i] ?? []));
    const post = (outcome: Record<string, unknown>, broken: boolean) => {
      p.onData = null;
      p.onResult = null;
      p.onExit = null;
      onMessage({
        type: "result",
        id: m.id,
        outcome: {
          ...outcome,
          stdout: text(0),
          stderr: text(1).slice(0, 4000),
          timeMs: performance.now() - t0,
        },
        broken,
      });
    };
    const finish = () => {
      if (fields && done[0] && done[1]) post(fields, false);
    };
    p.onData = (fd, chunk) => {
      const i = fd - 1;
      if (done[i] || over) return;
      const at = chunk.indexOf(mark);
      const part = at >= 0 ? chunk.subarray(0, at) : chunk;
      bytes += part.length;
      const keep = Math.max(0, part.length - Math.max(0, bytes - m.limits.outputBytes));
      got[i]?.push(part.subarray(0, keep));
      if (bytes > m.limits.outputBytes) {
        over = true;
        kill(p);
        return post({ status: "output_limit" }, true);
      }
      if (at >= 0) {
        done[i] = true;
        finish();
      }
    };
    p.onResult = (line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = null;
      }
      const r = parsed as { type?: unknown; id?: unknown; fields?: unknown } | null;
      if (r?.type !== "result" || r.id !== m.id || typeof r.fields !== "object" || !r.fields) {
        kill(p);
        return post({ status: "crashed", error: "the sandbox sent a malformed result" }, true);
      }
      fields = r.fields as Record<string, unknown>;
      // A MemoryError is the limit itself, reported as Pyodide's sandbox reports it: no message.
      if (fields.status === "memory_limit") delete fields.error;
      finish();
    };
    p.onExit = (signal, code) => {
      if (over) return;
      // A C-stack overflow kills CPython with SIGSEGV; Pyodide reports the same as RecursionError.
      if (signal === "SIGSEGV")
        return post(
          {
            status: "runtime_error",
            error: "RecursionError: the interpreter's stack overflowed (segmentation fault)",
          },
          true,
        );
      post(
        {
          status: "crashed",
          error: `the interpreter was ended by ${signal ?? `its exit ${code}`}`,
        },
        true,
      );
    };
    p.child.stdin?.write(`${JSON.stringify({ id: m.id, request: m.request, limits: m.limits })}\n`);
  }

  return {
    post(msg) {
      if (terminated) return;
      if (msg.type === "init") {
        if (!msg.snapshot) onMessage({ type: "snapshot", bytes: new Uint8Array(0) });
        fresh();
      } else if (msg.type === "reset") fresh();
      else run(msg);
    },
    onMessage: (cb) => (onMessage = cb),
    onFailure: (cb) => (failure = cb),
    terminate() {
      terminated = true;
      if (proc) kill(proc);
    },
  };
}
