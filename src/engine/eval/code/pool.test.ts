/**
 * The interpreter pool against scripted workers: a pristine interpreter per answer, one cold start
 * shared through its snapshot, kill on time-out, forged replies, aborts.
 */
import { describe, expect, it, vi } from "vitest";
import type { HostMessage, RunMessage, WorkerMessage } from "./protocol.ts";
import type { WorkerPort } from "./pool.ts";
import { createInterpreterPool } from "./pool.ts";
import type { RunLimits } from "./sandbox-types.ts";
import { DEFAULT_LIMITS } from "./sandbox-types.ts";

interface FakeWorker {
  port: WorkerPort;
  sent: HostMessage[];
  terminated: boolean;
  emit(m: WorkerMessage | Record<string, unknown>): void;
  fail(message: string): void;
}

const SNAPSHOT = new Uint8Array([1, 2, 3]);

/** Workers that start (and renew) at once unless told not to, and reply to runs as `reply` says. */
function fakes(reply: (msg: RunMessage, w: FakeWorker) => void, startsAtOnce = true) {
  const workers: FakeWorker[] = [];
  const spawn = () => {
    let onMessage: (d: unknown) => void = () => undefined;
    let onFailure: (m: string) => void = () => undefined;
    const w: FakeWorker = {
      sent: [],
      terminated: false,
      emit: (m) => onMessage(m),
      fail: (m) => onFailure(m),
      port: {
        post: (msg) => {
          w.sent.push(msg);
          if (msg.type === "run") reply(msg, w);
          else if (startsAtOnce)
            queueMicrotask(() => {
              if (msg.type === "init" && !msg.snapshot)
                w.emit({ type: "snapshot", bytes: SNAPSHOT });
              w.emit({ type: "ready", loadMs: 5 });
            });
        },
        onMessage: (cb) => (onMessage = cb),
        onFailure: (cb) => (onFailure = cb),
        terminate: () => (w.terminated = true),
      },
    };
    workers.push(w);
    return w.port;
  };
  return { workers, spawn };
}

const ok = (id: string, extra: Partial<Extract<WorkerMessage, { type: "result" }>> = {}) => ({
  type: "result" as const,
  id,
  outcome: { status: "ok" as const, stdout: "hi\n", stderr: "", timeMs: 1 },
  broken: false,
  ...extra,
});
const REQ = { mode: "stdio" as const, code: "print('hi')", stdin: "" };
const SHORT: RunLimits = { ...DEFAULT_LIMITS, timeMs: 30 };
const echo = (msg: RunMessage, w: FakeWorker) => queueMicrotask(() => w.emit(ok(msg.id)));
const kinds = (w: FakeWorker | undefined) => w?.sent.map((m) => m.type);

describe("interpreter pool", () => {
  it("gives every answer a pristine interpreter: its tests share it, then it is renewed", async () => {
    const f = fakes(echo);
    const pool = createInterpreterPool({ spawn: f.spawn, size: 1 });
    for (let answer = 0; answer < 3; answer++) {
      const lease = await pool.open();
      if (!lease.ok) throw new Error(lease.message);
      for (let test = 0; test < 2; test++)
        expect(await lease.run(REQ, DEFAULT_LIMITS)).toMatchObject({ outcome: { stdout: "hi\n" } });
      lease.close();
    }
    expect(f.workers).toHaveLength(1);
    expect(kinds(f.workers[0])).toEqual([
      "init",
      "run",
      "run",
      "reset",
      "run",
      "run",
      "reset",
      "run",
      "run",
      "reset",
    ]);
    expect(pool.status()).toMatchObject({ phase: "ready", starts: 1, lastLoadMs: 5 });
  });

  it("does not lend an interpreter again until its worker says the fresh one is ready", async () => {
    const f = fakes(echo, false);
    const pool = createInterpreterPool({ spawn: f.spawn, size: 1 });
    const first = pool.open();
    f.workers[0]?.emit({ type: "snapshot", bytes: SNAPSHOT });
    f.workers[0]?.emit({ type: "ready", loadMs: 1 });
    const lease = await first;
    if (!lease.ok) throw new Error(lease.message);
    lease.close();
    let second = false;
    const next = pool.open().then((l) => (second = l.ok));
    await new Promise((r) => setTimeout(r, 5));
    expect(second).toBe(false);
    // The worker says its fresh interpreter is ready: now it is lent again.
    f.workers[0]?.emit({ type: "ready", loadMs: 1 });
    await next;
    expect(second).toBe(true);
  });

  it("starts one worker cold and the others from its snapshot", async () => {
    const f = fakes(echo);
    const pool = createInterpreterPool({ spawn: f.spawn, size: 3 });
    await pool.warm();
    await new Promise((r) => setTimeout(r, 0));
    expect(f.workers).toHaveLength(3);
    const inits = f.workers.map((w) => w.sent[0]);
    expect(inits[0]).toEqual({ type: "init", snapshot: null });
    expect(inits.slice(1)).toEqual([
      { type: "init", snapshot: SNAPSHOT },
      { type: "init", snapshot: SNAPSHOT },
    ]);
  });

  it("terminates a worker that runs past the limit; the next answer takes a ready one at once", async () => {
    let hang = true;
    const f = fakes((msg, w) => {
      if (!hang) echo(msg, w);
    });
    const pool = createInterpreterPool({ spawn: f.spawn, size: 2 });
    await pool.warm();
    await new Promise((r) => setTimeout(r, 0));
    const r = await pool.run(REQ, SHORT);
    expect(r).toEqual({
      ok: true,
      outcome: { status: "timeout", stdout: "", stderr: "", timeMs: 30 },
    });
    expect(f.workers[0]?.terminated).toBe(true);
    hang = false;
    expect(await pool.run(REQ, SHORT)).toMatchObject({ ok: true, outcome: { status: "ok" } });
    // The spare that was ready took it, not the replacement still starting.
    expect(f.workers[1]?.sent.some((m) => m.type === "run")).toBe(true);
    expect(f.workers[2]?.sent.some((m) => m.type === "run")).toBe(false);
    expect(f.workers).toHaveLength(3); // the killed one was replaced
    expect(f.workers[2]?.sent[0]).toEqual({ type: "init", snapshot: SNAPSHOT });
  });

  it("ignores replies with another run's id or the wrong shape", async () => {
    const f = fakes((msg, w) => {
      w.emit(ok("forged", { outcome: { status: "ok", stdout: "forged", stderr: "", timeMs: 0 } }));
      w.emit({ type: "result", id: msg.id, outcome: "pass" });
      w.emit({ type: "snapshot", bytes: "not bytes" });
    });
    const pool = createInterpreterPool({ spawn: f.spawn });
    expect(await pool.run(REQ, SHORT)).toMatchObject({ ok: true, outcome: { status: "timeout" } });
  });

  it("replaces a broken interpreter mid-answer, and a worker that served maxAnswers", async () => {
    const replies = [ok("", { broken: true }), ok(""), ok(""), ok("")];
    const f = fakes((msg, w) => {
      const next = replies.shift();
      queueMicrotask(() => w.emit({ ...next, id: msg.id }));
    });
    const pool = createInterpreterPool({ spawn: f.spawn, size: 1, maxAnswers: 2 });
    const lease = await pool.open();
    if (!lease.ok) throw new Error(lease.message);
    await lease.run(REQ, DEFAULT_LIMITS);
    await lease.run(REQ, DEFAULT_LIMITS); // a fresh worker for the rest of this answer
    lease.close();
    await pool.run(REQ, DEFAULT_LIMITS);
    await pool.run(REQ, DEFAULT_LIMITS);
    expect(f.workers.map((w) => w.terminated)).toEqual([true, true, false]);
  });

  it("reports a worker that dies mid-run as a crash and one that cannot start as a failure", async () => {
    const f = fakes((_msg, w) => queueMicrotask(() => w.fail("out of memory")));
    const pool = createInterpreterPool({ spawn: f.spawn });
    expect(await pool.run(REQ, DEFAULT_LIMITS)).toMatchObject({
      ok: true,
      outcome: { status: "crashed", error: "out of memory" },
    });
    const g = fakes(() => undefined, false);
    const broken = createInterpreterPool({ spawn: g.spawn });
    const pending = broken.run(REQ, DEFAULT_LIMITS);
    g.workers[0]?.emit({ type: "progress", loaded: 10, total: 100 });
    expect(broken.status()).toMatchObject({ phase: "loading", loaded: 10, total: 100 });
    g.workers[0]?.emit({ type: "fatal", message: "404 pyodide.asm.wasm" });
    expect(await pending).toEqual({
      ok: false,
      code: "sandbox_failed",
      message: "The Python interpreter failed to start: 404 pyodide.asm.wasm",
    });
    expect(broken.status()).toMatchObject({ phase: "failed", message: "404 pyodide.asm.wasm" });
    expect(g.workers).toHaveLength(1); // no restart loop
  });

  it("dispose leaves no timer behind: the CLI's process exits when its evaluation ends", () => {
    vi.useFakeTimers();
    try {
      const f = fakes(echo, false);
      const pool = createInterpreterPool({ spawn: f.spawn, size: 2 });
      void pool.warm();
      f.workers[0]?.emit({ type: "snapshot", bytes: SNAPSHOT });
      f.workers[0]?.emit({ type: "ready", loadMs: 1 });
      expect(f.workers).toHaveLength(2);
      expect(vi.getTimerCount()).toBe(1); // the second worker's wait to start
      pool.dispose();
      expect(f.workers.map((w) => w.terminated)).toEqual([true, true]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("an abort stops the running program's worker at once", async () => {
    let posted: () => void = () => undefined;
    const sent = new Promise<void>((ok) => (posted = ok));
    const f = fakes(() => posted());
    const pool = createInterpreterPool({ spawn: f.spawn });
    const ctl = new AbortController();
    const pending = pool.run(REQ, DEFAULT_LIMITS, ctl.signal);
    await sent;
    expect(f.workers[0]?.terminated).toBe(false);
    ctl.abort();
    expect(await pending).toEqual({ ok: false, code: "aborted", message: "Cancelled." });
    expect(f.workers[0]?.terminated).toBe(true);
  });

  it("runs up to `size` answers at once and queues the rest", async () => {
    const pending: { msg: RunMessage; w: FakeWorker }[] = [];
    let wake: () => void = () => undefined;
    const f = fakes((msg, w) => {
      pending.push({ msg, w });
      wake();
    });
    const posts = async (n: number) => {
      while (pending.length < n) await new Promise<void>((ok) => (wake = ok));
    };
    const pool = createInterpreterPool({ spawn: f.spawn, size: 2 });
    const runs = [1, 2, 3].map(() => pool.run(REQ, DEFAULT_LIMITS));
    await posts(2);
    expect(f.workers).toHaveLength(2);
    expect(new Set(pending.map((p) => p.w)).size).toBe(2);
    const first = pending[0];
    first?.w.emit(ok(first.msg.id));
    await posts(3);
    expect(pending[2]?.w).toBe(first?.w); // renewed, it takes the queued answer
    expect(kinds(first?.w)).toContain("reset");
    for (const p of pending.slice(1)) p.w.emit(ok(p.msg.id));
    expect((await Promise.all(runs)).every((r) => r.ok)).toBe(true);
    expect(f.workers).toHaveLength(2);
  });
});
