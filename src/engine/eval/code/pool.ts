/**
 * The interpreter pool behind both sandboxes (node.ts, browser.ts). A warm interpreter is reused
 * from program to program (the harness puts it back as it was); one that ran past its time limit is
 * stopped by terminating its worker, and the next program gets a fresh one. So are interpreters that
 * crashed, grew past the memory limit, or ran `maxRuns` programs.
 */
import type { RunMessage, WorkerMessage } from "./protocol.ts";
import { workerMessageSchema } from "./protocol.ts";
import type { RunLimits, RunOutcome, RunRequest } from "./types.ts";

/** The host's handle on one interpreter worker, whatever the platform. */
export interface WorkerPort {
  post(msg: RunMessage): void;
  /** Every message from the worker, unvalidated. */
  onMessage(cb: (data: unknown) => void): void;
  /** The worker died or failed to start. */
  onFailure(cb: (message: string) => void): void;
  terminate(): void;
}

export type RunResult =
  | { ok: true; outcome: RunOutcome }
  | { ok: false; code: "sandbox_failed" | "aborted"; message: string };

export type SandboxPhase = "idle" | "loading" | "ready" | "failed";

/** What the UI shows about the Python runtime (see CodeRuntimeNote). */
export interface SandboxStatus {
  phase: SandboxPhase;
  /** Bytes of the runtime fetched so far and in total, while the first interpreter downloads. */
  loaded: number;
  total: number;
  /** Interpreters started so far (each kill adds one) and how long the last start took. */
  starts: number;
  lastLoadMs: number | null;
  message: string | null;
}

/** The sandbox the code scorer runs programs in. */
export interface Sandbox {
  run(request: RunRequest, limits: RunLimits, signal?: AbortSignal): Promise<RunResult>;
  /** Starts an interpreter now, so the first program does not wait for the download. */
  warm(): Promise<void>;
  /** Arrow-typed (no `this`), so React's useSyncExternalStore can take them as they are. */
  status: () => SandboxStatus;
  subscribe: (cb: (s: SandboxStatus) => void) => () => void;
  dispose(): void;
}

export interface PoolOptions {
  spawn: () => WorkerPort;
  /** Interpreters that may run at once (default 1). */
  size?: number;
  /** Programs per interpreter before it is replaced (default 500). */
  maxRuns?: number;
  /** How long an interpreter may take to start (default 60 s). */
  startTimeoutMs?: number;
  /** Random run ids; injectable for tests. */
  newId?: () => string;
}

interface Slot {
  port: WorkerPort;
  ready: Promise<RunResult | null>;
  busy: boolean;
  runs: number;
  listener: ((m: WorkerMessage) => void) | null;
  failure: ((message: string) => void) | null;
}

/** A sandbox that has not started an interpreter yet. */
export const IDLE_STATUS: SandboxStatus = {
  phase: "idle",
  loaded: 0,
  total: 0,
  starts: 0,
  lastLoadMs: null,
  message: null,
};

const failed = (message: string): RunResult => ({ ok: false, code: "sandbox_failed", message });

/** An interpreter pool over `spawn`; see the module comment. */
export function createInterpreterPool(opts: PoolOptions): Sandbox {
  const size = opts.size ?? 1;
  const maxRuns = opts.maxRuns ?? 500;
  const newId = opts.newId ?? (() => crypto.randomUUID());
  const slots = new Set<Slot>();
  const waiting: (() => void)[] = [];
  const subscribers = new Set<(s: SandboxStatus) => void>();
  let status: SandboxStatus = IDLE_STATUS;
  const setStatus = (patch: Partial<SandboxStatus>) => {
    status = { ...status, ...patch };
    for (const cb of subscribers) cb(status);
  };

  function retire(slot: Slot) {
    if (!slots.delete(slot)) return;
    slot.port.terminate();
    waiting.shift()?.();
  }

  function spawn(): Slot {
    const port = opts.spawn();
    let settle: (r: RunResult | null) => void = () => undefined;
    const slot: Slot = {
      port,
      ready: new Promise((ok) => (settle = ok)),
      busy: false,
      runs: 0,
      listener: null,
      failure: null,
    };
    slots.add(slot);
    setStatus({ phase: status.phase === "ready" ? "ready" : "loading", starts: status.starts + 1 });
    const timer = setTimeout(() => {
      settle(failed("The Python interpreter took too long to start."));
      retire(slot);
    }, opts.startTimeoutMs ?? 60_000);
    port.onMessage((data) => {
      const parsed = workerMessageSchema.safeParse(data);
      if (!parsed.success) return;
      const m = parsed.data;
      if (m.type === "progress") setStatus({ loaded: m.loaded, total: m.total });
      else if (m.type === "ready") {
        clearTimeout(timer);
        setStatus({ phase: "ready", lastLoadMs: m.loadMs, message: null });
        settle(null);
      } else if (m.type === "fatal") {
        clearTimeout(timer);
        setStatus({ phase: "failed", message: m.message });
        settle(failed(`The Python interpreter failed to start: ${m.message}`));
        retire(slot);
      } else slot.listener?.(m);
    });
    port.onFailure((message) => {
      clearTimeout(timer);
      settle(failed(`The Python interpreter stopped: ${message}`));
      slot.failure?.(message);
      retire(slot);
    });
    return slot;
  }

  async function acquire(signal?: AbortSignal): Promise<Slot | null> {
    for (;;) {
      if (signal?.aborted) return null;
      // Marked busy here, synchronously: a second run() in the same tick must not take it too.
      const slot = [...slots].find((s) => !s.busy) ?? (slots.size < size ? spawn() : null);
      if (slot) {
        slot.busy = true;
        return slot;
      }
      await new Promise<void>((ok) => waiting.push(ok));
    }
  }

  async function run(
    request: RunRequest,
    limits: RunLimits,
    signal?: AbortSignal,
  ): Promise<RunResult> {
    const aborted: RunResult = { ok: false, code: "aborted", message: "Cancelled." };
    const slot = await acquire(signal);
    if (!slot) return aborted;
    const notReady = await slot.ready;
    if (notReady) return notReady;
    if (signal?.aborted) {
      slot.busy = false;
      waiting.shift()?.();
      return aborted;
    }
    const id = newId();
    return new Promise<RunResult>((resolve) => {
      const finish = (r: RunResult, keep: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        slot.listener = null;
        slot.failure = null;
        slot.busy = false;
        if (keep) waiting.shift()?.();
        else retire(slot);
        resolve(r);
      };
      const onAbort = () => finish(aborted, false);
      const timer = setTimeout(() => {
        // The program is still running: only terminating its worker stops it.
        const outcome: RunOutcome = {
          status: "timeout",
          stdout: "",
          stderr: "",
          timeMs: limits.timeMs,
        };
        finish({ ok: true, outcome }, false);
      }, limits.timeMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      slot.listener = (m) => {
        if (m.type !== "result" || m.id !== id) return;
        slot.runs += 1;
        const keep = !m.broken && m.heapBytes <= limits.memoryBytes && slot.runs < maxRuns;
        finish({ ok: true, outcome: m.outcome }, keep);
      };
      slot.failure = (message) => {
        const outcome: RunOutcome = {
          status: "crashed",
          stdout: "",
          stderr: "",
          error: message,
          timeMs: 0,
        };
        finish({ ok: true, outcome }, false);
      };
      slot.port.post({ type: "run", id, request, limits });
    });
  }

  return {
    run,
    async warm() {
      if (slots.size === 0) await spawn().ready;
    },
    status: () => status,
    subscribe(cb) {
      subscribers.add(cb);
      return () => subscribers.delete(cb);
    },
    dispose() {
      for (const s of [...slots]) retire(s);
    },
  };
}
