// `conductor-studio serve`: what the server adds over the model calls it makes. Both the server
// and the stand-in models (the local test server) run in this process, over real HTTP.
import OpenAI from "openai";
import { startTestServer } from "../e2e/server/server.ts";
import type { TestServer } from "../e2e/server/server.ts";
import { resolveConfig } from "../src/cli/config.ts";
import type { ResolvedConfig } from "../src/cli/config.ts";
import { SERVE_DEFAULTS } from "../src/cli/serve/args.ts";
import { startServe } from "../src/cli/serve/server.ts";
import { createEngine, runQuestion } from "../src/cli/kit/engine.ts";
import { nodeFetch } from "../src/cli/kit/fetch.ts";

const PLAN = `Two attempts, then a check.
model_id = [0, 1, 2]
subtasks = ["Solve it.", "Solve it another way.", "Compare both and give the final answer."]
access_list = [[], [], ["all"]]`;
/** Plan, then two parallel attempts, then the checker: three calls on the critical path. */
const CRITICAL_CALLS = 3;

function script(server: TestServer, latencyMs: number) {
  server.reset();
  server.setDefault("conductor-7b", { content: PLAN, latencyMs });
  server.setDefault("solver-a", { content: "The sum is 5050. ".repeat(8), latencyMs });
  server.setDefault("solver-b", { content: "Pairs give 5050. ".repeat(8), latencyMs });
  server.setDefault("checker", { content: "Both agree: 5050. ".repeat(8), latencyMs });
}

function configFor(server: TestServer): ResolvedConfig {
  const entry = (model: string) => ({ baseURL: server.baseURL, model });
  const text = JSON.stringify({
    conductor: entry("conductor-7b"),
    workers: [
      { name: "A", ...entry("solver-a") },
      { name: "B", ...entry("solver-b") },
      { name: "C", ...entry("checker") },
    ],
  });
  const resolved = resolveConfig(text, {});
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(f: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await f();
  return performance.now() - start;
}

/** Runs `total` calls of `f`, `parallel` at a time; returns calls per second. */
async function throughput(total: number, parallel: number, f: () => Promise<unknown>) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < total) await f();
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

/** Prints serve's latency overhead at 50 ms per call and its requests per second at 0 ms. */
export async function benchServe(): Promise<void> {
  const server = await startTestServer();
  const resolved = configFor(server);
  const engine = createEngine(resolved);
  const running = await startServe(
    {
      ...SERVE_DEFAULTS,
      config: "",
      port: 0,
      concurrency: 16,
      queue: 1000,
      apiKey: undefined,
      allowedHosts: [],
      apiKeyEnv: undefined,
      cors: [],
      runs: undefined,
      fallbackWorker: undefined,
    },
    resolved,
    () => undefined,
  );
  // The client calls over the same HTTP client as the engine's own calls (node:http), so the ratio
  // holds what serve adds, not the difference between two HTTP clients in this one process.
  const client = new OpenAI({
    baseURL: `${running.url}/v1`,
    apiKey: "none",
    maxRetries: 0,
    fetch: nodeFetch,
  });
  const question = "What is the sum of the first 100 positive integers?";
  const direct = () =>
    runQuestion(engine, {
      question,
      context: [],
      runId: "bench",
      signal: new AbortController().signal,
    });
  const served = () =>
    client.chat.completions.create({
      model: "conductor",
      messages: [{ role: "user", content: question }],
    });
  try {
    script(server, 50);
    await direct();
    await served(); // warm both paths
    const directMs: number[] = [];
    const servedMs: number[] = [];
    for (let i = 0; i < 11; i++) {
      directMs.push(await timed(direct));
      servedMs.push(await timed(served));
    }
    const d = median(directMs);
    const s = median(servedMs);
    // The fastest of each is the least disturbed by other processes on a shared machine.
    const best = Math.min(...servedMs) / Math.min(...directMs);
    console.log("\nserve: request time / the same run without the server, 50 ms per call");
    console.log(
      `  ideal ${CRITICAL_CALLS * 50} ms  engine alone ${d.toFixed(1)} ms  through serve ${s.toFixed(1)} ms  ` +
        `ratio ${(s / d).toFixed(3)} (target <= 1.05; fastest of each ${best.toFixed(3)})  ` +
        `vs ideal ${(s / (CRITICAL_CALLS * 50)).toFixed(3)}`,
    );
    // 16 at once, as a harness with 16 workers sends them: each request's own latency. Rounds of
    // the two alternate, so a shared machine's changing load falls on both alike.
    const round16 = (f: () => Promise<unknown>) =>
      Promise.all(Array.from({ length: 16 }, () => timed(f)));
    await round16(direct);
    await round16(served);
    const alone16: number[] = [];
    const served16: number[] = [];
    for (let round = 0; round < 8; round++) {
      alone16.push(...(await round16(direct)));
      served16.push(...(await round16(served)));
    }
    const d16 = median(alone16);
    const s16 = median(served16);
    console.log("serve: 16 concurrent requests, 50 ms per call, p50 of each request's time");
    console.log(
      `  engine alone ${d16.toFixed(1)} ms  through serve ${s16.toFixed(1)} ms  ratio ${(s16 / d16).toFixed(3)} (target <= 1.10)`,
    );
    script(server, 0);
    const cpu = async (f: () => Promise<unknown>) => {
      const before = process.cpuUsage();
      const rps = await throughput(200, 16, f);
      const used = process.cpuUsage(before);
      return { rps, cpuMs: (used.user + used.system) / 1000 / 200 };
    };
    const alone = await cpu(direct);
    const through = await cpu(served);
    console.log(
      "serve: requests per second and CPU per request at 0 ms per call (4 calls a request, 16 at a time)",
    );
    console.log(
      `  engine alone ${alone.rps.toFixed(0)} runs/s, ${alone.cpuMs.toFixed(2)} ms CPU a run  ` +
        `through serve ${through.rps.toFixed(0)} requests/s, ${through.cpuMs.toFixed(2)} ms CPU a request ` +
        `(serve and its client add ${(through.cpuMs - alone.cpuMs).toFixed(2)} ms; the stand-in models' CPU is in both)`,
    );
  } finally {
    await running.shutdown(0);
    await server.close();
  }
}
