// Test support: a vitest fixture with a real redis-server per test, and the links two processes
// would open to it. Not a test file.
import { it } from "vitest";
import type { RedisLink } from "../../node/redis/link.ts";
import { openRedis } from "../../node/redis/link.ts";
import type { RedisServer } from "./redis-server.ts";
import { startRedisServer } from "./redis-server.ts";

/**
 * `it` with a fresh redis-server as the `redis` fixture, stopped when the test ends. The stop is
 * the test's first `onTestFinished` hook, so it runs last (they run as a stack): after the links
 * the test closes. (A fixture's own teardown would run before those hooks, and a client still
 * open when its server goes throws "Socket closed unexpectedly" outside any test.)
 */
export const redisIt = it.extend<{ redis: RedisServer }>({
  redis: async ({ onTestFinished }, use) => {
    const server = await startRedisServer();
    onTestFinished(() => server.stop());
    await use(server);
  },
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
