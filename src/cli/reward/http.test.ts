// The reward service's HTTP layer with a scripted scorer: statuses, the batch queue, draining and
// a client that leaves. Real HTTP on 127.0.0.1.
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { RewardHttpContext } from "./http.ts";
import { createRewardServer } from "./http.ts";
import type { RewardRequest, RewardResult } from "./request.ts";
import { RunQueue } from "../serve/request-queue.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

function result(id: string): RewardResult {
  return {
    id,
    reward: 1,
    correct: true,
    format_ok: true,
    answer: "4",
    error: null,
    parse_error: null,
    run_id: "run-x",
    cost: 0,
    calls: 1,
    cached_calls: 0,
    extracted: "4",
  };
}

async function serve(over: Partial<RewardHttpContext> = {}) {
  const lines: string[] = [];
  let draining = false;
  const seen: AbortSignal[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const ctx: RewardHttpContext = {
    apiKey: undefined,
    guard: { bind: "127.0.0.1", allowedHosts: [], cors: [] },
    maxBodyBytes: 10_000,
    queue: new RunQueue(1, 0),
    draining: () => draining,
    log: (l) => lines.push(l),
    health: () => ({ items_scored: 0 }),
    track: () => () => undefined,
    score: async (request: RewardRequest, signal: AbortSignal) => {
      seen.push(signal);
      if (request.items[0]?.id === "hold") await held;
      return request.items.map((i) => result(i.id));
    },
    ...over,
  };
  const server = createRewardServer(ctx, new Set());
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (body: unknown, init: RequestInit = {}) =>
    fetch(`${url}/v1/rewards`, {
      method: "POST",
      body: JSON.stringify(body),
      ...init,
      headers: { "Content-Type": "application/json", ...init.headers },
    });
  return { url, post, lines, seen, release, drain: () => (draining = true) };
}

const item = (id: string) => ({ id, question: "What is 2+2?", completion: "plan", reference: "4" });

describe("the reward service's HTTP layer", () => {
  it("answers rewards in request order and refuses what it cannot take", async () => {
    const s = await serve();
    const ok = await s.post({ items: [item("a"), item("b")] });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { rewards: { id: string }[] };
    expect(body.rewards.map((r) => r.id)).toEqual(["a", "b"]);
    expect((await s.post({ items: [{ id: "a" }] })).status).toBe(400);
    const notJson = await fetch(`${s.url}/v1/rewards`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    const big = await s.post({ items: [{ ...item("a"), completion: "x".repeat(20_000) }] });
    expect(big.status).toBe(413);
    expect((await fetch(`${s.url}/v1/rewards`)).status).toBe(405);
    const elsewhere = await fetch(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
    });
    expect(elsewhere.status).toBe(404);
    expect(s.lines.some((l) => / 413 body over 10000 bytes/.test(l))).toBe(true);
  });

  it("turns a batch away with 429 while the slots and the line are full", async () => {
    const s = await serve();
    const first = s.post({ items: [item("hold")] });
    // Wait until the held batch has its slot.
    while (s.seen.length === 0) await new Promise((r) => setImmediate(r));
    const refused = await s.post({ items: [item("b")] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("queue_full");
    s.release();
    expect((await first).status).toBe(200);
    expect((await s.post({ items: [item("c")] })).status).toBe(200);
  });

  it("aborts a batch whose client went away", async () => {
    const s = await serve();
    const client = new AbortController();
    const gone = s.post({ items: [item("hold")] }, { signal: client.signal }).catch(() => null);
    while (s.seen.length === 0) await new Promise((r) => setImmediate(r));
    client.abort();
    await gone;
    while (!s.seen[0]!.aborted) await new Promise((r) => setImmediate(r));
    expect(s.seen[0]!.aborted).toBe(true);
    s.release();
  });

  it("answers 503 while draining, /health included, and checks the key before the body", async () => {
    const s = await serve({ apiKey: "sk-test-key" });
    expect((await s.post({ items: [item("a")] })).status).toBe(401);
    const ok = await s.post(
      { items: [item("a")] },
      { headers: { Authorization: "Bearer sk-test-key" } },
    );
    expect(ok.status).toBe(200);
    const health = await fetch(`${s.url}/health`);
    expect(await health.json()).toMatchObject({
      status: "ok",
      batches_running: 0,
      items_scored: 0,
    });
    s.drain();
    const h = await fetch(`${s.url}/health`);
    expect(h.status).toBe(503);
    expect(await h.json()).toMatchObject({ status: "draining" });
    expect((await s.post({ items: [item("a")] })).status).toBe(503);
    expect(s.lines.join("\n")).not.toContain("sk-test-key");
  });
});
