// Kept apart from link.ts so that printing an address does not load the Redis client.

/** The URL without its password, for messages and logs. */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    u.password = "";
    u.username = "";
    return u.toString();
  } catch {
    return "redis://(unparseable URL)";
  }
}
