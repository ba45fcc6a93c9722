// `reward` past one machine: the same GRPO-shaped batch scored by one replica, then split
// round-robin (a load balancer that does not hash) over two replicas sharing one Redis cache. A
// question's rollouts repeat its subtasks word for word, so split replicas only answer them once
// upstream through Redis (claims and entries). Both replicas run in this process (one Redis link);
// the stand-in workers in a process of their own. Run alone: npx tsx bench/reward-replicas.ts
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { resolveConfig } from "../src/cli/config.ts";
import { parseRewardArgs } from "../src/cli/reward/args.ts";
import { startReward } from "../src/cli/reward/server.ts";
import { startRedisServer } from "../src/test-support/node/redis-server.ts";
import { startServerProcess } from "./server-process.ts";

const QUESTIONS = 32;
const ROLLOUTS = 8;
const LATENCY_MS = 50;

interface Reward {
  reward: number | null;
  calls: number;
  cached_calls: number;
}

async function post(url: string, items: unknown[]): Promise<Reward[]> {
  const res = await fetch(`${url}/v1/rewards`, { method: "POST", body: JSON.stringify({ items }) });
  if (!res.ok) throw new Error(`reward service answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { rewards: Reward[] }).rewards;
}

/** QUESTIONS x ROLLOUTS items; every rollout of a question samples the same two-step plan. */
const batchOf = (tag: string) =>
  Array.from({ length: QUESTIONS * ROLLOUTS }, (_v, i) => {
    const q = `${Math.floor(i / ROLLOUTS)} (${tag})`;
    return {
      id: `q${i}`,
      question: `Question ${q}: what is the sum of the first 100 positive integers?`,
      completion: `Solve, then check.
model_id = [0, 1]
subtasks = ["Solve question ${q}.", "Check the answer to question ${q}."]
access_list = [[], ["all"]]`,
      reference: "5050",
    };
  });

/** Prints the wall time of one replica and of two sharing Redis, their ratio and hit rates. */
export async function benchRewardReplicas(): Promise<void> {
  const reply = { content: "Answer: 5050", latencyMs: LATENCY_MS };
  const server = await startServerProcess({ "solver-a": reply, "solver-b": reply });
  const redis = await startRedisServer();
  const dir = await mkdtemp(join(tmpdir(), "conductor-bench-replicas-"));
  const entry = (model: string) => ({
    baseURL: server.baseURL,
    model,
    price: { input: 1, output: 4 },
  });
  const config = join(dir, "pool.json");
  await writeFile(
    config,
    JSON.stringify({
      conductor: entry("conductor-7b"),
      workers: [
        { name: "A", ...entry("solver-a") },
        { name: "B", ...entry("solver-b") },
      ],
    }),
  );
  const resolved = resolveConfig(await readFile(config, "utf8"), {});
  if (!resolved.ok) throw new Error(resolved.message);
  const start = () =>
    startReward(
      parseRewardArgs(["--config", config, "--port", "0", "--cache", redis.url], {}),
      resolved,
      () => undefined,
    );
  const [one, two] = [await start(), await start()];
  try {
    const run = async (label: string, urls: string[], tag: string) => {
      const items = batchOf(tag);
      const parts = urls.map((_u, k) => items.filter((_x, i) => i % urls.length === k));
      const t0 = performance.now();
      const rewards = (await Promise.all(urls.map((u, k) => post(u, parts[k]!)))).flat();
      const ms = performance.now() - t0;
      if (rewards.some((r) => r.reward !== 1)) throw new Error(`${label}: a reward was not 1`);
      const calls = rewards.reduce((t, r) => t + r.calls, 0);
      const cached = rewards.reduce((t, r) => t + r.cached_calls, 0);
      console.log(
        `reward ${label}: ${items.length} rewards (${QUESTIONS} questions x ${ROLLOUTS} rollouts, ` +
          `${LATENCY_MS} ms per call) in ${(ms / 1000).toFixed(2)}s; ${calls - cached} upstream of ` +
          `${calls} calls, hit rate ${((100 * cached) / calls).toFixed(1)}%`,
      );
      return ms;
    };
    await run("warm-up", [one.url, two.url], "warm-up");
    const single = await run("1 replica + Redis", [one.url], "single");
    const split = await run("2 replicas + 1 Redis (round-robin)", [one.url, two.url], "split");
    console.log(`reward replicas: wall ratio 2 replicas / 1 = ${(split / single).toFixed(3)}`);
  } finally {
    await Promise.all([one.shutdown(0), two.shutdown(0)]);
    await redis.stop();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchRewardReplicas();
