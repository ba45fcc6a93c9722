/** The interpreter pool against scripted workers: reuse, kill on time-out, forged replies, aborts. */
import { describe, expect, it } from "vitest";
import type { RunMessage, WorkerMessage } from "./protocol.ts";
import type { WorkerPort } from "./pool.ts";
import { createInterpreterPool } from "./pool.ts";
import type { RunLimits } from "./types.ts";
import { DEFAULT_LIMITS } from "./types.ts";

interface FakeWorker {
  port: WorkerPort;
  sent: RunMessage[];
  terminated: boolean;
  emit(m: WorkerMessage | Record<string, unknown>): void;
  fail(message: string): void;
}

/** Workers that reply as `reply` says, or never (a hanging program). */
function fakes(reply: (msg: RunMessage, w: FakeWorker) => void, readyAtOnce = true) {
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
          reply(msg, w);
        },
        onMessage: (cb) => (onMessage = cb),
        onFailure: (cb) => (onFailure = cb),
        terminate: () => (w.terminated = true),
      },
    };
    workers.push(w);
    if (readyAtOnce) queueMicrotask(() => w.emit({ type: "ready", loadMs: 5 }));
    return w.port;
  };
  return { workers, spawn };
}

const ok = (id: string, extra: Partial<Extract<WorkerMessage, { type: "result" }>> = {}) => ({
  type: "result" as const,
  id,
  outcome: { status: "ok" as const, stdout: "hi\n", stderr: "", timeMs: 1 },
  heapBytes: 1000,
  broken: false,
  ...extra,
});
const REQ = { mode: "stdio" as const, code: "print('hi')", stdin: "" };
const SHORT: RunLimits = { ...DEFAULT_LIMITS, timeMs: 30 };

describe("interpreter pool", () => {
  it("reuses one warm interpreter for program after program", async () => {
    const f = fakes((msg, w) => queueMicrotask(() => w.emit(ok(msg.id))));
    const pool = createInterpreterPool({ spawn: f.spawn });
    for (let i = 0; i < 5; i++)
      expect(await pool.run(REQ, DEFAULT_LIMITS)).toMatchObject({
        ok: true,
        outcome: { stdout: "hi\n" },
      });
    expect(f.workers).toHaveLength(1);
    expect(pool.status()).toMatchObject({ phase: "ready", starts: 1, lastLoadMs: 5 });
  });

  it("terminates a worker that runs past the limit; the next program gets a fresh one", async () => {
    let hang = true;
    const f = fakes((msg, w) => {
      if (!hang) queueMicrotask(() => w.emit(ok(msg.id)));
    });
    const pool = createInterpreterPool({ spawn: f.spawn });
    const r = await pool.run(REQ, SHORT);
    expect(r).toEqual({
      ok: true,
      outcome: { status: "timeout", stdout: "", stderr: "", timeMs: 30 },
    });
    expect(f.workers[0]?.terminated).toBe(true);
    hang = false;
    expect(await pool.run(REQ, SHORT)).toMatchObject({ ok: true, outcome: { status: "ok" } });
    expect(f.workers).toHaveLength(2);
    expect(f.workers[1]?.terminated).toBe(false);
  });

  it("ignores replies with another run's id or the wrong shape", async () => {
    const f = fakes((msg, w) => {
      w.emit(ok("forged", { outcome: { status: "ok", stdout: "forged", stderr: "", timeMs: 0 } }));
      w.emit({ type: "result", id: msg.id, outcome: "pass" });
    });
    const pool = createInterpreterPool({ spawn: f.spawn });
    expect(await pool.run(REQ, SHORT)).toMatchObject({ ok: true, outcome: { status: "timeout" } });
  });

  it("replaces an interpreter that is broken, too big, or has run maxRuns programs", async () => {
    const replies = [
      ok("", { broken: true }),
      ok("", { heapBytes: 2 ** 31 }),
      ok(""),
      ok(""),
      ok(""),
    ];
    const f = fakes((msg, w) => {
      const next = replies.shift();
      queueMicrotask(() => w.emit({ ...next, id: msg.id }));
    });
    const pool = createInterpreterPool({ spawn: f.spawn, maxRuns: 2 });
    for (let i = 0; i < 5; i++) await pool.run(REQ, DEFAULT_LIMITS);
    // broken -> new; too big -> new; then two runs -> new; one more run.
    expect(f.workers.map((w) => w.terminated)).toEqual([true, true, true, false]);
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

  it("runs up to `size` programs at once and queues the rest", async () => {
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
    expect(pending[2]?.w).toBe(first?.w); // the freed interpreter takes the queued program
    for (const p of pending.slice(1)) p.w.emit(ok(p.msg.id));
    expect((await Promise.all(runs)).every((r) => r.ok)).toBe(true);
    expect(f.workers).toHaveLength(2);
  });
});
