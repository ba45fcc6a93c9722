import { describe, expect, it } from "vitest";
import { AsyncQueue } from "./queue.ts";

describe("AsyncQueue", () => {
  it("delivers items pushed before and while the consumer waits, in order, until closed", async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    const seen: number[] = [];
    const consumed = (async () => {
      for await (const n of queue) seen.push(n);
    })();
    await Promise.resolve();
    queue.push(2);
    queue.push(3);
    queue.close();
    queue.push(4);
    await consumed;
    expect(seen).toEqual([1, 2, 3]);
  });

  it("ends a waiting consumer on close", async () => {
    const queue = new AsyncQueue<string>();
    const next = queue[Symbol.asyncIterator]().next();
    queue.close();
    expect(await next).toEqual({ value: undefined, done: true });
  });

  it("keeps falsy items", async () => {
    const queue = new AsyncQueue<number | undefined>();
    queue.push(0);
    queue.push(undefined);
    queue.push(5);
    queue.close();
    const seen: (number | undefined)[] = [];
    for await (const n of queue) seen.push(n);
    expect(seen).toEqual([0, undefined, 5]);
  });
});
