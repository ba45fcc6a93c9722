// Two `reward` replicas (child processes) sharing one real redis-server: a repeated request is
// answered upstream once, in flight together or one after the other; the rate limit's buckets
// live there; no key is ever stored; Redis stopping leaves the service answering, uncached.
import { createClient } from "redis";
import { describe, it } from "vitest";
import { QUESTION, harness, threeWorkerConfig } from "../../test-support/cli/cli-harness.ts";
import { startRedisServer } from "../../test-support/node/redis-server.ts";
import { startRewardProcess } from "../../test-support/cli/reward-harness.ts";

const KEY_A = "sk-canary-solver-a-9f3e21d7b4";
const PLAN = `One solver.
model_id = [0]
subtasks = ["Sum the integers from 1 to 100."]
access_list = [[]]`;

const batch = (id: string) => ({
  items: [{ id, question: QUESTION, completion: PLAN, reference: "5050" }],
});

interface Rewards {
  rewards: { reward: number | null; calls: number; cached_calls: number }[];
}

describe("reward replicas sharing Redis", { timeout: 60_000 }, () => {
  it("answers a repeated request upstream once, keeps its buckets there, stores no key, and survives Redis stopping", async ({
    expect,
    onTestFinished,
  }) => {
    const redis = await startRedisServer();
    onTestFinished(() => redis.stop());
    const { server, file } = await harness(onTestFinished, { keys: { "solver-a": KEY_A } });
    const config = await file("pool.json", threeWorkerConfig(server, {}, { a: "CS_SOLVER_A_KEY" }));
    const args = ["--config", config, "--cache", redis.url];
    const limit = ["--rate-limit", "1000", "--rate-limit-store", redis.url];
    const env = { CS_SOLVER_A_KEY: KEY_A };
    const [one, two] = await Promise.all([
      startRewardProcess([...args, ...limit], env),
      startRewardProcess([...args, ...limit], env),
    ]);
    onTestFinished(async () => void (await Promise.all([one.stop(), two.stop()])));
    const upstream = () => server.requests.filter((r) => r.path === "/v1/chat/completions").length;

    // In flight on both replicas at once: one upstream call, held until both have asked.
    const hold = server.gate("hold");
    server.setDefault("solver-a", { content: "Answer: 5050", gate: "hold" });
    const both = Promise.all([one.post(batch("a")), two.post(batch("b"))]);
    while (upstream() < 1) await new Promise((r) => setTimeout(r, 10));
    hold.release();
    const [ra, rb] = await both;
    const rewards = [ra, rb].map((r) => (r.json as Rewards).rewards[0]!);
    expect(rewards.map((r) => r.reward)).toEqual([1, 1]);
    expect(upstream()).toBe(1);
    expect(rewards.map((r) => r.cached_calls).sort()).toEqual([0, 1]);
    // Again, on either replica: from Redis, nothing upstream.
    const again = await two.post(batch("c"));
    expect((again.json as Rewards).rewards[0]!.cached_calls).toBe(1);
    expect(upstream()).toBe(1);

    // Every key and value in Redis: the entry, the bucket; never the worker's key.
    const raw = createClient({ url: redis.url });
    await raw.connect();
    raw.on("error", () => undefined);
    const keys = await raw.keys("*");
    expect(keys.some((k) => k.startsWith("conductor:cache:v2:"))).toBe(true);
    expect(keys.some((k) => k.startsWith("conductor:rate:v1:http://127.0.0.1:"))).toBe(true);
    for (const k of keys) {
      const type = await raw.type(k);
      const value = type === "hash" ? JSON.stringify(await raw.hGetAll(k)) : await raw.get(k);
      expect(`${k} ${value}`).not.toContain(KEY_A);
    }
    await raw.close();

    // Redis stops: the replica goes on, uncached, and says so once.
    await redis.stop();
    server.setDefault("solver-a", { content: "Answer: 5050" });
    const first = await one.post(batch("d"));
    const second = await one.post(batch("e"));
    expect([first, second].map((r) => (r.json as Rewards).rewards[0]!.reward)).toEqual([1, 1]);
    expect(upstream()).toBe(3);
    expect(one.stderr().match(/going on without it/g)).toHaveLength(1);
  });
});
