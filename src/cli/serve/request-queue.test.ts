import { describe, it } from "vitest";
import { RunQueue } from "./request-queue.ts";

describe("RunQueue", () => {
  it("admits up to the concurrency, queues in order, and refuses past the line", async ({
    expect,
  }) => {
    const q = new RunQueue(2, 2);
    const a = await q.acquire();
    const b = await q.acquire();
    const order: string[] = [];
    const c = q.acquire().then((x) => (order.push("c"), x));
    const d = q.acquire().then((x) => (order.push("d"), x));
    expect(await q.acquire()).toEqual({ ok: false, reason: "full" });
    expect([q.active, q.queued]).toEqual([2, 2]);
    if (!a.ok || !b.ok) throw new Error("not admitted");
    a.release();
    a.release(); // a second release is ignored
    const cc = await c;
    expect([q.active, q.queued, order]).toEqual([2, 1, ["c"]]);
    b.release();
    const dd = await d;
    expect(order).toEqual(["c", "d"]);
    if (cc.ok) cc.release();
    if (dd.ok) dd.release();
    expect([q.active, q.queued]).toEqual([0, 0]);
  });

  it("drops a waiter whose client left, and turns everyone away once closed", async ({
    expect,
  }) => {
    const q = new RunQueue(1, 5);
    const first = await q.acquire();
    const left = new AbortController();
    const leaving = q.acquire(left.signal);
    const staying = q.acquire();
    left.abort();
    expect(await leaving).toEqual({ ok: false, reason: "aborted" });
    expect(q.queued).toBe(1);
    q.close();
    expect(await staying).toEqual({ ok: false, reason: "closed" });
    expect(await q.acquire()).toEqual({ ok: false, reason: "closed" });
    if (first.ok) first.release();
    expect(q.active).toBe(0);
  });
});
