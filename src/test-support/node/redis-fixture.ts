// Test support: a vitest fixture with a real redis-server per test, and the links two processes
// would open to it. Not a test file.
import { it } from "vitest";
import { fixtureFrom } from "../cli/cli-harness.ts";
import type { RedisLink } from "../../node/redis/link.ts";
import { openRedis } from "../../node/redis/link.ts";
import type { RedisServer } from "./redis-server.ts";
import { startRedisServer } from "./redis-server.ts";

/**
 * `it` with a fresh redis-server as the `redis` fixture, stopped when the test ends, after the
 * test's own hooks have closed its links (`fixtureFrom` says why that order).
 */
export const redisIt = it.extend<{ redis: RedisServer }>({
  redis: fixtureFrom(async (onFinished) => {
    const server = await startRedisServer();
    onFinished(() => server.stop());
    return server;
  }),
});

/** Two links to the server at `url`, as two processes hold them; closed when the test ends. */
export async function twoLinks(
  url: string,
  onFinished: (fn: () => Promise<void>) => void,
  warn: (line: string) => void = () => {},
): Promise<[RedisLink, RedisLink]> {
  const [a, b] = await Promise.all([openRedis(url, warn), openRedis(url, warn)]);
  onFinished(async () => (await a.close(), await b.close()));
  return [a, b];
}
