// `conductor-studio reward` as a child process over real HTTP, against the local test server
// standing in for every worker: the rewards of a batch, keys, the cache, the run log.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import {
  CLI_TIMEOUT_MS,
  QUESTION,
  runCli,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import type { RewardProcess } from "../../test-support/cli/reward-harness.ts";
import { startRewardProcess } from "../../test-support/cli/reward-harness.ts";
import { readRuns } from "../../test-support/cli/serve-child.ts";

const SERVER_KEY = "sk-reward-test-0c4e8a1f93";
const KEY_A = "sk-test-solver-a-5d2b7e11c0";

const plan = (ids: number[], access = "[]") => `Let me work out which models should handle this.
model_id = [${ids.join(", ")}]
subtasks = [${ids.map((i) => `"Sum the integers from 1 to 100 (step for model ${i})."`).join(", ")}]
access_list = [${ids.map(() => access).join(", ")}]`;

const item = (id: string, completion: string, extra: Record<string, unknown> = {}) => ({
  id,
  question: QUESTION,
  completion,
  reference: "5050",
  ...extra,
});

const chatCalls = (server: TestServer) =>
  server.requests.filter((r) => r.path === "/v1/chat/completions").length;

interface Rewards {
  rewards: {
    id: string;
    reward: number | null;
    correct: boolean | null;
    format_ok: boolean;
    error: { code: string; message: string } | null;
    calls: number;
    cached_calls: number;
    cost: number;
    run_id: string | null;
  }[];
}

describe("conductor-studio reward", { timeout: CLI_TIMEOUT_MS }, () => {
  let server: TestServer;
  let service: RewardProcess;
  let dir = "";
  beforeAll(async () => {
    server = await startTestServer({ keys: { "solver-a": KEY_A } });
    dir = await mkdtemp(join(tmpdir(), "conductor-reward-"));
    const config = join(dir, "pool.json");
    await writeFile(
      config,
      JSON.stringify(threeWorkerConfig(server, {}, { a: "CS_SOLVER_A_KEY" })),
    );
    service = await startRewardProcess(
      ["--config", config, "--api-key-env", "RW_KEY", "--concurrency", "2"].concat([
        "--cache",
        join(dir, "cache"),
        "--runs",
        join(dir, "runs"),
      ]),
      { RW_KEY: SERVER_KEY, CS_SOLVER_A_KEY: KEY_A },
    );
  }, 20_000);
  afterAll(async () => {
    await service?.stop();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.reset();
    server.setDefault("solver-a", {
      content: "Pairing terms gives 5050.\nAnswer: 5050",
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    });
    server.setDefault("solver-b", {
      content: "Answer: 5000",
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    });
    server.setDefault("checker", { status: 401, errorMessage: "Incorrect API key provided" });
  });

  it("answers rewards in request order: 1 right, 0.5 wrong, 0 unparseable or outside the pool, null on a failed call", async ({
    expect,
  }) => {
    const batch = {
      items: [
        item("right", plan([0])),
        item("wrong", plan([1])),
        item("prose", "The answer is obviously 5050."),
        item("outside", plan([0, 3])),
        item("failed", plan([0, 2], '["all"]')),
      ],
    };
    const r = await service.post(batch, SERVER_KEY);
    expect(r.status).toBe(200);
    const { rewards } = r.json as Rewards;
    expect(rewards.map((x) => [x.id, x.reward, x.correct, x.format_ok])).toEqual([
      ["right", 1, true, true],
      ["wrong", 0.5, false, true],
      ["prose", 0, false, false],
      ["outside", 0, false, false],
      ["failed", null, null, true],
    ]);
    expect(rewards[4]!.error?.code).toBe("worker_failed");
    expect(rewards[4]!.error?.message).toMatch(/Checker/);
    expect(rewards[0]!.cost).toBeCloseTo((100 * 2 + 20 * 10) / 1e6, 12);
    // The unparseable plans called nobody; "right" and "failed" ask solver-a the same subtask at
    // once, which the cache answers with one upstream call; the checker's 401 is not retried.
    expect(chatCalls(server)).toBe(3);
    // Each plan that ran is a run record under --runs, with its reward beside it.
    const runs = await readRuns(join(dir, "runs"));
    const ids = rewards.map((x) => x.run_id).filter((x) => x !== null);
    expect(runs.map((l) => l.run.id).sort()).toEqual([...ids].sort());
    expect(runs.find((l) => l.run.id === rewards[0]!.run_id)?.run.rounds[0]?.plan?.raw).toBe(
      plan([0]),
    );
  });

  it("follows eval's format_bonus rule for a request that asks it: 0 unparseable, B wrong, 1 + B right", async ({
    expect,
  }) => {
    const batch = {
      format_bonus: 0.25,
      items: [item("right", plan([0])), item("wrong", plan([1])), item("prose", "It is 5050.")],
    };
    const { rewards } = (await service.post(batch, SERVER_KEY)).json as Rewards;
    expect(rewards.map((x) => [x.id, x.reward, x.correct])).toEqual([
      ["right", 1.25, true],
      ["wrong", 0.25, false],
      ["prose", 0, false],
    ]);
  });

  it("answers a second identical batch from the cache: no upstream call, counted in /health", async ({
    expect,
  }) => {
    const batch = { items: [item("a", plan([0, 1], '["all"]')), item("b", plan([1]))] };
    const first = (await service.post(batch, SERVER_KEY)).json as Rewards;
    const paid = chatCalls(server);
    const before = (
      (await service.health()).json as { cache: { hits: number; saved_cost: number } }
    ).cache;
    const second = (await service.post(batch, SERVER_KEY)).json as Rewards;
    expect(chatCalls(server)).toBe(paid);
    expect(second.rewards.map((x) => x.reward)).toEqual(first.rewards.map((x) => x.reward));
    expect(
      second.rewards.every((x) => x.cost === 0 && x.cached_calls === x.calls && x.calls > 0),
    ).toBe(true);
    const health = await service.health();
    expect(health.status).toBe(200);
    const h = health.json as {
      status: string;
      cache: { hits: number; misses: number; saved_cost: number; mode: string };
    };
    expect(h.status).toBe("ok");
    expect(h.cache.mode).toBe("read-write");
    expect(h.cache.hits - before.hits).toBe(3);
    expect(h.cache.saved_cost - before.saved_cost).toBeGreaterThan(0);
    expect(service.stderr()).toMatch(
      /cache \(read-write\): \d+ hits, \d+ misses, \$\d\.\d{4} saved/,
    );
  });

  it("requires the server key, refuses bad bodies, and never writes a key anywhere", async ({
    expect,
  }) => {
    const none = await service.post({ items: [item("x", plan([0]))] });
    expect(none.status).toBe(401);
    expect(await service.post({ items: [item("x", plan([0]))] }, "sk-wrong")).toMatchObject({
      status: 401,
    });
    const bad = await service.post({ items: [{ id: "x", question: QUESTION }] }, SERVER_KEY);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toMatch(/completion/);
    expect((await service.post({ items: [] }, SERVER_KEY)).status).toBe(400);
    expect(chatCalls(server)).toBe(0);
    const files: string[] = [];
    for (const sub of ["runs", "cache"]) {
      for (const f of await readdir(join(dir, sub), { recursive: true }))
        if (f.endsWith(".json") || f.endsWith(".jsonl"))
          files.push(await readFile(join(dir, sub, f), "utf8"));
    }
    const everything = [service.stderr(), ...files].join("\n");
    expect(files.length).toBeGreaterThan(0);
    expect(everything).not.toContain(SERVER_KEY);
    expect(everything).not.toContain(KEY_A);
  });

  it("refuses to listen off loopback without a key, and bad options", async ({ expect }) => {
    const open = await runCli(["reward", "--config", "pool.json", "--host", "0.0.0.0"]);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/without a server key/);
    const bonus = await runCli(["reward", "--config", "pool.json", "--format-bonus", "2"]);
    expect(bonus.code).toBe(2);
    expect(bonus.stderr).toMatch(/--format-bonus must be a number from 0 to 1/);
    const word = await runCli(["reward", "--config", "pool.json", "--format-bonus", "half"]);
    expect(word.code).toBe(2);
    expect(word.stderr).toMatch(/--format-bonus must be a number from 0 to 1, got "half"/);
  });
});
