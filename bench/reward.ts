// `conductor-studio reward`: rewards per second for a GRPO-sized batch, against the ideal set by
// the worker latency and the per-origin concurrency. The stand-in workers (the local test server)
// run in a process of their own, so their work does not count as the service's; real HTTP.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../src/cli/config.ts";
import { parseRewardArgs } from "../src/cli/reward/args.ts";
import { startReward } from "../src/cli/reward/server.ts";
import { startServerProcess } from "./server-process.ts";

const BATCH = 256;
/** Per worker call; BENCH_REWARD_LATENCY_MS overrides it (to tell CPU cost from scheduling). */
const LATENCY_MS = Number(process.env.BENCH_REWARD_LATENCY_MS ?? 50);
const CONCURRENCY = 16;
/** Two independent attempts, then a check that sees both: 3 worker calls, 2 on the critical path. */
const CALLS_PER_PLAN = 3;
/** Timed batches per service, after one untimed; BENCH_REWARD_BATCHES overrides it. */
const TIMED = Number(process.env.BENCH_REWARD_BATCHES ?? 3);

const plan = (q: string) => `Two attempts, then a check.
model_id = [0, 1, 2]
subtasks = ["Solve question ${q}.", "Solve question ${q} another way.", "Compare both and answer question ${q}."]
access_list = [[], [], ["all"]]`;

async function post(
  url: string,
  body: unknown,
): Promise<{ rewards: { reward: number | null; calls: number; cached_calls: number }[] }> {
  const res = await fetch(`${url}/v1/rewards`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`reward service answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as {
    rewards: { reward: number | null; calls: number; cached_calls: number }[];
  };
}

/** A batch of the bench's shape; `tag` makes every worker request new (a miss for the cache). */
const batchOf = (tag: string) =>
  Array.from({ length: BATCH }, (_v, i) => ({
    id: `q${i}`,
    question: `Question ${i} (${tag}): what is the sum of the first 100 positive integers?`,
    completion: plan(`${i} (${tag})`),
    reference: "5050",
  }));

interface Timed {
  ms: number;
  cpuMs: number;
  upstream: number;
}

const middle = (xs: Timed[]) => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)]!;

/**
 * Prints rewards per second for a batch of 256 at 50 ms per worker call and concurrency 16. A
 * trainer calls the service for hours, so each service first scores one batch untimed (the code
 * compiled, as after a training run's first step); then the median of TIMED batches, each of new
 * requests, and the fastest (the least disturbed by other processes on a shared machine).
 */
export async function benchReward(): Promise<void> {
  const reply = { content: "It is 5050.\nAnswer: 5050", latencyMs: LATENCY_MS };
  const server = await startServerProcess({ "solver-a": reply, "solver-b": reply, checker: reply });
  const dir = await mkdtemp(join(tmpdir(), "conductor-bench-reward-"));
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
        { name: "C", ...entry("checker") },
      ],
    }),
  );
  const resolved = resolveConfig(await readFile(config, "utf8"), {});
  if (!resolved.ok) throw new Error(resolved.message);
  /** Starts a service with `args`, scores `tags` (the first untimed), and stops it. */
  const session = async (label: string, args: string[], tags: string[]): Promise<Timed[]> => {
    const service = await startReward(
      parseRewardArgs(
        ["--config", config, "--port", "0", "--concurrency", String(CONCURRENCY), ...args],
        {},
      ),
      resolved,
      () => undefined,
    );
    try {
      const out: Timed[] = [];
      for (const tag of tags) {
        const items = batchOf(tag);
        const cpu = process.cpuUsage();
        const start = performance.now();
        const { rewards } = await post(service.url, { items });
        const ms = performance.now() - start;
        const used = process.cpuUsage(cpu);
        if (rewards.some((r) => r.reward !== 1)) throw new Error(`${label}: a reward was not 1`);
        const upstream = rewards.reduce((t, r) => t + r.calls - r.cached_calls, 0);
        out.push({ ms, cpuMs: (used.user + used.system) / 1000, upstream });
      }
      return out.slice(1);
    } finally {
      await service.shutdown(0);
    }
  };
  try {
    const calls = BATCH * CALLS_PER_PLAN;
    const ideal = (calls * LATENCY_MS) / CONCURRENCY;
    const line = (label: string, runs: Timed[]) => {
      const r = middle(runs);
      const best = Math.min(...runs.map((x) => x.ms));
      const cpu = middle(runs.map((x) => ({ ...x, ms: x.cpuMs }))).cpuMs;
      console.log(
        `reward${label}: ${BATCH} rewards (${calls} worker calls at ${LATENCY_MS} ms, concurrency ${CONCURRENCY}) ` +
          `in ${(r.ms / 1000).toFixed(2)}s = ${(BATCH / (r.ms / 1000)).toFixed(1)} rewards/s (median of ${runs.length}); ` +
          `ideal ${(ideal / 1000).toFixed(2)}s; ratio ${(r.ms / ideal).toFixed(3)} (target <= 1.10; fastest ` +
          `${(best / ideal).toFixed(3)}); service CPU ${(cpu / calls).toFixed(2)} ms per worker call (the ideal ` +
          `leaves ${(LATENCY_MS / CONCURRENCY).toFixed(2)} ms of one core per call)`,
      );
    };
    const timed = Array.from({ length: TIMED }, (_v, i) => `batch ${i}`);
    // Without a cache: the service alone. Then with --cache, which also writes each answer to disk.
    line("", await session("plain", [], ["warm-up", ...timed]));
    const cache = ["--cache", join(dir, "cache")];
    line(
      " with --cache (writing every answer)",
      await session("cold", cache, ["cache warm-up", ...timed]),
    );
    const [warm] = await session("cached", [...cache, "--cache-mode", "read-only"], timed);
    if (!warm) throw new Error("no cached batch");
    console.log(
      `reward: the same batch from the cache in ${(warm.ms / 1000).toFixed(2)}s = ` +
        `${(BATCH / (warm.ms / 1000)).toFixed(0)} rewards/s, ${warm.upstream} upstream calls`,
    );
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
