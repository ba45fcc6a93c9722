/**
 * The interpreter pool behind both sandboxes (src/node/sandbox, browser.ts; contract in
 * sandbox.ts). Every answer gets a pristine interpreter of its own (`open`), used for that
 * answer's tests only; when the answer is
 * done its worker makes a fresh one from the memory snapshot, off the critical path. A program
 * still running at its time limit, or one that hit a limit, is stopped by ending its worker; a new
 * worker starts from the shared snapshot while the others take the next answers.
 */
import type { RunMessage, WorkerMessage } from "./protocol.ts";
import { workerMessageSchema } from "./protocol.ts";
import type {
  LeaseResult,
  PoolOptions,
  RunResult,
  Sandbox,
  SandboxStatus,
  WorkerPort,
} from "./sandbox.ts";
import { IDLE_STATUS } from "./sandbox.ts";
import type { RunLimits, RunOutcome, RunRequest } from "./sandbox-types.ts";

export type {
  Lease,
  LeaseResult,
  PoolOptions,
  RunResult,
  Sandbox,
  SandboxPhase,
  SandboxStatus,
  WorkerPort,
} from "./sandbox.ts";
export { IDLE_STATUS } from "./sandbox.ts";

interface Slot {
  port: WorkerPort;
  state: "starting" | "ready" | "leased" | "dead";
  answers: number;
  listener: ((m: WorkerMessage) => void) | null;
  failure: ((message: string) => void) | null;
  /** The wait for its first "ready": cleared when retired, or it keeps a CLI process alive. */
  startTimer?: ReturnType<typeof setTimeout>;
}

const failed = (message: string) => ({
  ok: false as const,
  code: "sandbox_failed" as const,
  message,
});
const ABORTED = { ok: false as const, code: "aborted" as const, message: "Cancelled." };
const outcomeOf = (status: RunOutcome["status"], timeMs: number, error?: string): RunOutcome =>
  error === undefined
    ? { status, stdout: "", stderr: "", timeMs }
    : { status, stdout: "", stderr: "", error, timeMs };

/** An interpreter pool over `spawn`; see the module comment. */
export function createInterpreterPool(opts: PoolOptions): Sandbox {
  const size = Math.max(1, opts.size ?? 2);
  const maxAnswers = opts.maxAnswers ?? 200;
  const newId = opts.newId ?? (() => crypto.randomUUID());
  const slots = new Set<Slot>();
  let waiting: ((s: Slot | null) => void)[] = [];
  const subscribers = new Set<(s: SandboxStatus) => void>();
  let status: SandboxStatus = IDLE_STATUS;
  let snapshot: Uint8Array | null = null;
  const readyWatchers = new Set<() => void>();
  let disposed = false;
  const setStatus = (patch: Partial<SandboxStatus>) => {
    status = { ...status, ...patch };
    for (const cb of subscribers) cb(status);
  };
  const syncIdle = () => {
    const idle = [...slots].filter((s) => s.state === "ready").length;
    if (idle !== status.idle) setStatus({ idle });
  };

  /** A slot became ready: the first waiter takes it. */
  function offer(slot: Slot) {
    const next = waiting.shift();
    if (next) {
      slot.state = "leased";
      next(slot);
    }
  }

  function retire(slot: Slot) {
    if (!slots.delete(slot)) return;
    slot.state = "dead";
    clearTimeout(slot.startTimer);
    slot.port.terminate();
    syncIdle();
    // Replaced at once, off the critical path; a pool that cannot start one stops trying.
    if (!disposed && status.phase !== "failed") fill();
  }

  // One worker starts cold and sends its snapshot; the others wait for it and start warm.
  function fill() {
    const target = snapshot ? size : 1;
    while (slots.size < target) spawn();
  }

  function spawn(): Slot {
    const port = opts.spawn();
    const slot: Slot = { port, state: "starting", answers: 0, listener: null, failure: null };
    slots.add(slot);
    setStatus({ phase: status.phase === "ready" ? "ready" : "loading", starts: status.starts + 1 });
    const timer = setTimeout(() => {
      if (slot.state !== "starting") return;
      startFailed("The Python interpreter took too long to start.");
      retire(slot);
    }, opts.startTimeoutMs ?? 60_000);
    slot.startTimer = timer;
    port.onMessage((data) => {
      const parsed = workerMessageSchema.safeParse(data);
      if (!parsed.success) return;
      const m = parsed.data;
      // Only a worker that has run no program yet may speak for the pool (its snapshot, its
      // failure to start); after that it speaks for its own answer alone.
      const unused = slot.state === "starting" && slot.answers === 0;
      if (m.type === "progress") setStatus({ loaded: m.loaded, total: m.total });
      else if (m.type === "snapshot") {
        if (unused) snapshot ??= m.bytes;
        if (!disposed) fill();
      } else if (m.type === "ready") {
        if (slot.state !== "starting") return;
        clearTimeout(timer);
        failedStarts = 0;
        slot.state = "ready";
        setStatus({ phase: "ready", lastLoadMs: m.loadMs, message: null });
        for (const cb of [...readyWatchers]) cb();
        offer(slot);
        syncIdle();
      } else if (m.type === "fatal") {
        clearTimeout(timer);
        if (unused) {
          setStatus({ phase: "failed", message: m.message });
          failAll(`The Python interpreter failed to start: ${m.message}`);
        } else slot.failure?.(m.message);
        retire(slot);
      } else slot.listener?.(m);
    });
    port.onFailure((message) => {
      clearTimeout(timer);
      slot.failure?.(message);
      if (slot.state === "starting") startFailed(message);
      retire(slot);
    });
    port.post({ type: "init", snapshot });
    return slot;
  }

  /** A worker that fails while starting, three times in a row, fails the pool (no retry loop). */
  let failedStarts = 0;
  function startFailed(message: string) {
    failedStarts += 1;
    if (failedStarts < 3 && snapshot) return;
    setStatus({ phase: "failed", message });
    failAll(`The Python interpreter stopped: ${message}`);
  }

  let lastFailure = "";
  function failAll(message: string) {
    lastFailure = message;
    const w = waiting;
    waiting = [];
    for (const cb of w) cb(null);
    for (const cb of [...readyWatchers]) cb();
  }

  function acquire(signal?: AbortSignal): Promise<Slot | null> {
    if (status.phase === "failed") status = { ...status, phase: "loading" };
    fill();
    const ready = [...slots].find((s) => s.state === "ready");
    if (ready) {
      ready.state = "leased";
      syncIdle();
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => {
      const take = (s: Slot | null) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(s);
      };
      const onAbort = () => {
        waiting = waiting.filter((w) => w !== take);
        resolve(null);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.push(take);
    });
  }

  /** Hands a used slot back: its worker renews the interpreter, or the worker is replaced. */
  function release(slot: Slot) {
    if (slot.state !== "leased") return;
    slot.answers += 1;
    if (slot.answers >= maxAnswers) return retire(slot);
    slot.state = "starting";
    slot.port.post({ type: "reset" });
  }

  function runOn(slot: Slot, request: RunRequest, limits: RunLimits, signal?: AbortSignal) {
    const id = newId();
    return new Promise<{ result: RunResult; keep: boolean }>((resolve) => {
      const finish = (result: RunResult, keep: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        slot.listener = null;
        slot.failure = null;
        resolve({ result, keep });
      };
      const onAbort = () => finish(ABORTED, false);
      // The program is still running at its limit: only ending its worker stops it.
      const timer = setTimeout(
        () => finish({ ok: true, outcome: outcomeOf("timeout", limits.timeMs) }, false),
        limits.timeMs,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      slot.listener = (m) => {
        if (m.type !== "result" || m.id !== id) return;
        finish({ ok: true, outcome: m.outcome }, !m.broken);
      };
      slot.failure = (message) =>
        finish({ ok: true, outcome: outcomeOf("crashed", 0, message) }, false);
      slot.port.post({ type: "run", id, request, limits } satisfies RunMessage);
    });
  }

  async function open(signal?: AbortSignal): Promise<LeaseResult> {
    if (signal?.aborted) return ABORTED;
    let slot = await acquire(signal);
    if (!slot) return signal?.aborted ? ABORTED : failed(lastFailure || "no interpreter");
    let closed = false;
    return {
      ok: true,
      async run(request, limits, runSignal = signal) {
        if (closed) return failed("This answer's interpreter was already handed back.");
        // The interpreter died during an earlier test of this answer: the rest get a fresh one.
        if (!slot) slot = await acquire(runSignal);
        if (!slot) return runSignal?.aborted ? ABORTED : failed(lastFailure || "no interpreter");
        if (runSignal?.aborted) return ABORTED;
        const { result, keep } = await runOn(slot, request, limits, runSignal);
        if (!keep) {
          retire(slot);
          slot = null;
        }
        return result;
      },
      close() {
        if (closed) return;
        closed = true;
        if (slot) release(slot);
        slot = null;
      },
    };
  }

  return {
    open,
    async run(request, limits, signal) {
      const lease = await open(signal);
      if (!lease.ok) return lease;
      try {
        return await lease.run(request, limits, signal);
      } finally {
        lease.close();
      }
    },
    /** Resolves once an interpreter is ready (or the pool failed); leases nothing. */
    async warm() {
      if (status.phase === "failed") status = { ...status, phase: "loading" };
      fill();
      if ([...slots].some((s) => s.state === "ready")) return;
      await new Promise<void>((done) => {
        const cb = () => {
          readyWatchers.delete(cb);
          done();
        };
        readyWatchers.add(cb);
      });
    },
    status: () => status,
    subscribe(cb) {
      subscribers.add(cb);
      return () => subscribers.delete(cb);
    },
    dispose() {
      disposed = true;
      for (const s of [...slots]) retire(s);
      failAll("The sandbox was closed.");
    },
  };
}

/**
 * `open` for a sandbox that runs each program by itself (a scripted one in tests): every lease
 * runs on `run` and holds nothing.
 */
export function leaseOver(run: Sandbox["run"]): Sandbox["open"] {
  return (signal) =>
    Promise.resolve(
      signal?.aborted
        ? ABORTED
        : { ok: true as const, run: (r, l, s = signal) => run(r, l, s), close: () => undefined },
    );
}
