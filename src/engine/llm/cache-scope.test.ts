// The response cache with repeats distinct counts an evaluation task's identical requests within
// the task and the call's place in its run, never within a session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { ResponseCache } from "./cache.ts";
import { cachedRequest, emptyCacheStats, memoryCacheStore, withCache, withScope } from "./cache.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import { createOpenAIBackend } from "./openai.ts";
import type { ChatBackend, ChatRequest } from "./types.ts";
import { collect, LlmError } from "./types.ts";

const target = { baseURL: "https://api.example.com/v1", model: "m" };
const request = (site = "r0.s0"): ChatRequest => ({
  messages: [{ role: "user", content: "Solve 2+2." }],
  temperature: 0.2,
  maxTokens: 512,
  site,
});
const signal = () => new AbortController().signal;
const ask = async (b: ChatBackend, r = request()) => (await collect(b, r, signal())).text;

function cacheOf(
  store = memoryCacheStore(),
  repeats: ResponseCache["repeats"] = "distinct",
): ResponseCache & { store: ReturnType<typeof memoryCacheStore> } {
  return { store, mode: "read-write", stats: emptyCacheStats(), repeats };
}

describe("repeats: distinct, within a scope", () => {
  it("gives each task its own answers: another task's identical request is a call of its own", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `sample ${n}` }));
    const cache = cacheOf();
    const cached = withCache(upstream, cache, target);
    expect(await ask(withScope(cached, { task: "A" }))).toBe("sample 0");
    expect(await ask(withScope(cached, { task: "B" }))).toBe("sample 1");
    expect(upstream.calls).toHaveLength(2);
    // Later, in any order and any session (a fresh scope object per task run): each its own.
    const later = withCache(upstream, cacheOf(cache.store), target);
    expect(await ask(withScope(later, { task: "B" }))).toBe("sample 1");
    expect(await ask(withScope(later, { task: "A" }))).toBe("sample 0");
    expect(upstream.calls).toHaveLength(2);
    const scopes = [...cache.store.entries.values()].map((e) => e.request.scope);
    expect(scopes).toEqual([
      { task: "A", site: "r0.s0" },
      { task: "B", site: "r0.s0" },
    ]);
  });

  it("keeps two places of one task apart, and counts a place's repeated request (a plan asked again)", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `sample ${n}` }));
    const cache = cacheOf();
    const task = withScope(withCache(upstream, cache, target), { task: "A" });
    expect(await ask(task, request("r0.s0"))).toBe("sample 0");
    expect(await ask(task, request("r0.s1"))).toBe("sample 1");
    expect(await ask(task, request("r0.plan"))).toBe("sample 2");
    expect(await ask(task, request("r0.plan"))).toBe("sample 3");
    // The task run again: the same answers at the same places, in the same order, no call.
    const again = withScope(withCache(upstream, cacheOf(cache.store), target), { task: "A" });
    expect(await ask(again, request("r0.s1"))).toBe("sample 1");
    expect(await ask(again, request("r0.plan"))).toBe("sample 2");
    expect(await ask(again, request("r0.plan"))).toBe("sample 3");
    expect(await ask(again, request("r0.s0"))).toBe("sample 0");
    expect(upstream.calls).toHaveLength(4);
    // A third ask at the plan's place is new.
    expect(await ask(again, request("r0.plan"))).toBe("sample 4");
  });

  it("numbers a task run again in the same session (resumed after a pause) afresh, as after a reload", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `sample ${n}` }));
    const cached = withCache(upstream, cacheOf(), target);
    // The plan's first answer did not parse; the run was cut short while it asked again.
    expect(await ask(withScope(cached, { task: "A" }), request("r0.plan"))).toBe("sample 0");
    // The task runs again, with a scope of its own: the same first answer, then the next.
    const again = withScope(cached, { task: "A" });
    expect(await ask(again, request("r0.plan"))).toBe("sample 0");
    expect(upstream.calls).toHaveLength(1);
    expect(await ask(again, request("r0.plan"))).toBe("sample 1");
  });

  it("a failed call in a scope keeps its number for the retry", async () => {
    const upstream = createFakeBackend([
      { error: new LlmError("server") },
      { text: "retried" },
      { text: "second" },
    ]);
    const cache = cacheOf();
    const task = withScope(withCache(upstream, cache, target), { task: "A" });
    await expect(ask(task)).rejects.toThrow(LlmError);
    expect(await ask(task)).toBe("retried");
    expect(await ask(task)).toBe("second");
    const numbers = [...cache.store.entries.values()].map((e) => e.request.occurrence);
    expect(numbers).toEqual([0, 1]);
  });

  it("a call without a scope (serve) still counts within the session, apart from scoped ones", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `sample ${n}` }));
    const cache = cacheOf();
    const cached = withCache(upstream, cache, target);
    expect(await ask(withScope(cached, { task: "A" }))).toBe("sample 0");
    expect(await ask(cached)).toBe("sample 1");
    expect(await ask(cached)).toBe("sample 2");
    const again = withCache(upstream, cacheOf(cache.store), target);
    expect([await ask(again), await ask(again)]).toEqual(["sample 1", "sample 2"]);
    expect(upstream.calls).toHaveLength(3);
    const unscoped = [...cache.store.entries.values()].filter((e) => e.request.scope === null);
    expect(unscoped.map((e) => e.request.occurrence)).toEqual([0, 1]);
  });

  it("share mode ignores the scope: identical requests of two tasks share one answer", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `sample ${n}` }));
    const cache = cacheOf(memoryCacheStore(), "share");
    const cached = withCache(upstream, cache, target);
    expect(await ask(withScope(cached, { task: "A" }), request("r0.s0"))).toBe("sample 0");
    expect(await ask(withScope(cached, { task: "B" }), request("r0.s3"))).toBe("sample 0");
    expect(await ask(cached)).toBe("sample 0");
    expect(upstream.calls).toHaveLength(1);
    const [entry] = [...cache.store.entries.values()];
    expect(entry?.request).toEqual(cachedRequest(target, request()));
  });
});

describe("repeats: distinct, calls at once", () => {
  it("a call that fails after a later identical one took the next number gives none back", async () => {
    let open = () => undefined as void;
    const gate = new Promise<void>((r) => (open = r));
    const upstream = createFakeBackend([
      { gate, error: new LlmError("server") },
      { text: "b" },
      { text: "a, retried" },
      { text: "c" },
    ]);
    const cache = cacheOf();
    const backend = withCache(upstream, cache, target);
    // A (number 0) is in flight when B (number 1) is asked and answered.
    const a = ask(backend);
    for (let i = 0; i < 1000 && upstream.calls.length === 0; i++)
      await new Promise((r) => setImmediate(r));
    expect(await ask(backend)).toBe("b");
    open();
    await expect(a).rejects.toThrow(LlmError);
    // A's retry and a third ask are new samples: neither is given B's stored answer.
    expect(await ask(backend)).toBe("a, retried");
    expect(await ask(backend)).toBe("c");
    expect(upstream.calls).toHaveLength(4);
  });
});

describe("the scope and the place on the wire", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("are never sent to the provider", async () => {
    server.setDefault("m", "4");
    const backend = createOpenAIBackend({ baseURL: server.baseURL, model: "m" });
    expect(await ask(withScope(backend, { task: '["q0","chain",0]' }), request("r0.s1"))).toBe("4");
    const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body);
    expect(bodies).toHaveLength(1);
    const sent = JSON.stringify(bodies[0]);
    expect(sent).not.toContain("q0");
    expect(sent).not.toContain("r0.s1");
    expect(Object.keys(bodies[0] as object)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/scope|site|task/)]),
    );
  });
});
