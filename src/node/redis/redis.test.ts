// The Redis cache store, claims and rate buckets against a real redis-server, including Redis
// stopping mid-run.
import { createClient } from "redis";
import { describe } from "vitest";
import { CACHE_VERSION } from "../../engine/llm/cache.ts";
import { redisCacheStore } from "./redis-cache.ts";
import { openRedis } from "./link.ts";
import { memoryBuckets, redisBuckets } from "./rate.ts";
import { cachedResponse } from "../../test-support/node/cached-response.ts";
import { redisIt, twoLinks } from "../../test-support/node/redis-fixture.ts";

const KEY = `sha256:${"ab".repeat(32)}`;

const entry = (key = KEY, text = "42") => cachedResponse(key, text);

describe("Redis store", { timeout: 20_000 }, () => {
  redisIt(
    "stores entries under the version's keys; another process's store reads them",
    async ({ expect, onTestFinished, redis: server }) => {
      const warned: string[] = [];
      const [a, b] = await twoLinks(server.url, onTestFinished, (l) => warned.push(l));
      const one = redisCacheStore(a, { claims: true });
      const two = redisCacheStore(b, { claims: true });
      expect(await one.get(KEY)).toBeUndefined(); // claimed by one
      await one.put(entry());
      expect((await two.get(KEY))?.response.text).toBe("42");
      const raw = createClient({ url: server.url });
      await raw.connect();
      onTestFinished(() => raw.close());
      expect(await raw.keys("*")).toEqual([`conductor:cache:v${CACHE_VERSION}:${"ab".repeat(32)}`]);
      // An entry stored under another key is a miss, never another request's answer.
      const other = `sha256:${"cd".repeat(32)}`;
      await raw.set(
        `conductor:cache:v${CACHE_VERSION}:${"cd".repeat(32)}`,
        JSON.stringify(entry()),
      );
      expect(await redisCacheStore(b, { claims: false }).get(other)).toBeUndefined();
      expect(warned).toEqual([]);
    },
  );

  redisIt(
    "a miss claims its key: the same get elsewhere waits for the answer, or goes on when released",
    async ({ expect, onTestFinished, redis: server }) => {
      const [a, b] = await twoLinks(server.url, onTestFinished);
      const one = redisCacheStore(a, { claims: true });
      const two = redisCacheStore(b, { claims: true });
      expect(await one.get(KEY)).toBeUndefined();
      let settled = false;
      const waiting = two.get(KEY).then((e) => ((settled = true), e));
      // Still waiting after several of its polls: nothing is stored yet.
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 20));
      expect(settled).toBe(false);
      await one.put(entry());
      expect((await waiting)?.response.text).toBe("42");
      // A released claim (the call failed) lets the waiter make its own call.
      const key2 = `sha256:${"ef".repeat(32)}`;
      expect(await one.get(key2)).toBeUndefined();
      const second = two.get(key2);
      one.release!(key2);
      expect(await second).toBeUndefined();
    },
  );

  redisIt(
    "Redis stopping mid-run: misses, skipped writes, said once, and no wait",
    async ({ expect, onTestFinished, redis: server }) => {
      const warned: string[] = [];
      const link = await openRedis(server.url, (l) => warned.push(l));
      onTestFinished(() => link.close());
      const store = redisCacheStore(link, { claims: true });
      await store.put(entry());
      await server.stop();
      expect(await store.get(KEY)).toBeUndefined();
      await expect(store.put(entry())).rejects.toThrow(/not stored/);
      expect(await store.get(KEY)).toBeUndefined();
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatch(
        /^Redis at redis:\/\/127\.0\.0\.1:\d+\/0 failed .*going on without it/,
      );
      expect(link.down).toBe(true);
      // The buckets fall back to this process's own.
      const buckets = redisBuckets(
        link,
        { perSecond: 0.001, burst: 1 },
        memoryBuckets({ perSecond: 0.001, burst: 1 }),
      );
      expect(await buckets.take("http://x")).toBe(0);
      expect(await buckets.take("http://x")).toBeGreaterThan(0);
    },
  );

  redisIt(
    "one token bucket per origin, shared by every replica",
    async ({ expect, onTestFinished, redis: server }) => {
      const [a, b] = await twoLinks(server.url, onTestFinished);
      // Nearly no refill: the burst is all there is while the test runs.
      const spec = { perSecond: 0.001, burst: 3 };
      const ra = redisBuckets(a, spec, memoryBuckets(spec));
      const rb = redisBuckets(b, spec, memoryBuckets(spec));
      const waits = [];
      for (let i = 0; i < 3; i++)
        waits.push(await ra.take("http://up"), await rb.take("http://up"));
      expect(waits.filter((w) => w === 0)).toHaveLength(3);
      expect(Math.min(...waits.filter((w) => w > 0))).toBeGreaterThan(900_000);
      // Another origin has a bucket of its own.
      expect(await rb.take("http://other")).toBe(0);
    },
  );
});
