// One Redis connection for the CLI's shared cache and rate limit (`redis://HOST:PORT/DB`). Redis
// is an accelerator, never a dependency of a run's result: once a command fails, the link is down
// for good, says so once, and every later operation answers its fallback at once (no cache, the
// process's own rate limit) instead of queueing behind a dead socket.
import { createClient } from "redis";
import { redisWhere } from "./where.ts";

/** No reconnection and no offline queue: a command on a lost connection fails at once. */
const makeClient = (url: string) =>
  createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 5_000, reconnectStrategy: false },
  });
type Client = ReturnType<typeof makeClient>;

export class RedisLink {
  private failed = false;
  /** The openRedis calls this link answered that have not closed it yet. */
  users = 1;
  constructor(
    private readonly client: Client,
    readonly where: string,
    private readonly warn: (line: string) => void,
  ) {}

  get down(): boolean {
    return this.failed;
  }

  /** `op` on the client, or `fallback` once Redis has failed (this failure included). */
  async run<T>(op: (client: Client) => Promise<T>, fallback: T): Promise<T> {
    if (this.failed) return fallback;
    try {
      return await op(this.client);
    } catch (e: unknown) {
      this.fail(e);
      return fallback;
    }
  }

  private fail(e: unknown) {
    if (this.failed) return;
    this.failed = true;
    const why = e instanceof Error ? e.message : String(e);
    this.warn(
      `Redis at ${this.where} failed (${why}); going on without it: no shared cache, the rate limit per process.`,
    );
    this.client.destroy();
  }

  /** Closes the connection once every user of it has. */
  async close(): Promise<void> {
    if (--this.users > 0 || this.failed) return;
    this.failed = true;
    await this.client.close().catch(() => this.client.destroy());
  }
}

/** Links by URL: the cache and the rate limit of one process share one, and say things once. */
const links = new Map<string, Promise<RedisLink>>();

/**
 * Connects to `url`, or shares this process's open link to it; rejects with a message when Redis
 * cannot be reached at the start (a wrong address is a mistake to report, not a reason to run
 * uncached).
 */
export async function openRedis(url: string, warn: (line: string) => void): Promise<RedisLink> {
  const open = links.get(url);
  const live = open && (await open.catch(() => null));
  if (live && !live.down) {
    live.users++;
    return live;
  }
  const made = connect(url, warn);
  links.set(url, made);
  return made;
}

async function connect(url: string, warn: (line: string) => void): Promise<RedisLink> {
  const where = redisWhere(url);
  const client = makeClient(url);
  let lost: unknown = null;
  // Errors arrive here too (a lost socket); without a listener they would crash the process.
  client.on("error", (e: unknown) => (lost ??= e));
  try {
    await client.connect();
  } catch (e: unknown) {
    client.destroy();
    const why = e instanceof Error ? e.message : String(lost ?? e);
    throw new Error(`Cannot reach Redis at ${where}: ${why}`);
  }
  return new RedisLink(client, where, warn);
}
