import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { callCost } from "../cost.ts";
import { collect, LlmError } from "./types.ts";
import type { ChatBackend, ChatRequest } from "./types.ts";
import { createFakeBackend } from "../../test-support/engine/llm/fake-backend.ts";
import type { ResponseCache } from "./cache.ts";
import {
  CACHE_FORMAT,
  CACHE_VERSION,
  cachedRequest,
  cacheKey,
  canonicalJson,
  emptyCacheStats,
  memoryCacheStore,
  withCache,
  withScope,
} from "./cache.ts";

const target = {
  baseURL: "https://api.example.com/v1/",
  model: "m",
  price: { input: 2, output: 10 },
};
const request = (content = "Solve 2+2.", extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content }],
  temperature: 0.2,
  maxTokens: 512,
  ...extra,
});
const signal = () => new AbortController().signal;

function cacheOf(mode: ResponseCache["mode"] = "read-write") {
  return { store: memoryCacheStore(), mode, stats: emptyCacheStats() };
}

/** Resolves once `cond` holds, checking after each macrotask (never a timer). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
}

/** A memory store whose reads can be held until a number of them wait (see `atOnce`). */
function heldStore() {
  const memory = memoryCacheStore();
  let held: { count: number; release: () => void; all: Promise<void> } | null = null;
  const store = {
    ...memory,
    get: async (key: string) => {
      if (held && --held.count === 0) held.release();
      await held?.all;
      return memory.get(key);
    },
  };
  const hold = (count: number) => {
    let release: () => void = () => undefined;
    const all = new Promise<void>((r) => (release = r));
    held = { count, release, all };
    return all;
  };
  return { store, hold };
}

/**
 * `n` calls at once: every one has looked in the store (and missed) before any goes on, so none
 * can be answered from the store, only from a call in flight.
 */
async function atOnce<T>(held: ReturnType<typeof heldStore>, n: number, call: () => Promise<T>) {
  const looked = held.hold(n);
  const all = Promise.all(Array.from({ length: n }, call));
  await looked;
  return all;
}

describe("the response cache", () => {
  it("answers a repeated request from the store: no upstream call, marked cached, costs nothing", async () => {
    const upstream = createFakeBackend([
      {
        text: "4",
        reasoning: ["2 and 2 "],
        usage: { promptTokens: 1000, completionTokens: 100, estimated: false },
      },
    ]);
    const cache = cacheOf();
    const backend = withCache(upstream, cache, target);
    const first = await collect(backend, request(), signal());
    const second = await collect(backend, request(), signal());
    expect(upstream.calls).toHaveLength(1);
    expect(second.text).toBe("4");
    expect(second.reasoning).toBe("2 and 2 ");
    expect(first.usage?.cached).toBeUndefined();
    expect(second.usage).toMatchObject({ promptTokens: 1000, completionTokens: 100, cached: true });
    expect(callCost(second.usage!, target.price)).toBe(0);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1 });
    // 1000 x $2/M + 100 x $10/M
    expect(cache.stats.savedCost).toBeCloseTo(0.003, 10);
    // The hit carries what it saved, so a record's totals can say it; the stored usage does not.
    expect(second.usage?.savedCost).toBeCloseTo(0.003, 10);
    const [stored] = [...cache.store.entries.values()];
    expect(stored?.response.usage.savedCost).toBeUndefined();
    expect(stored?.response.usage.cached).toBeUndefined();
  });

  it("replays a hit as the call streamed it: no empty text or reasoning chunk", async () => {
    const upstream = createFakeBackend([{ text: "4" }, { text: "", reasoning: ["thinking only"] }]);
    const backend = withCache(upstream, cacheOf(), target);
    const kinds = async (content: string) => {
      const seen: string[] = [];
      for await (const chunk of backend.stream(request(content), signal())) seen.push(chunk.type);
      return seen;
    };
    await kinds("plain");
    await kinds("thought");
    expect(upstream.calls).toHaveLength(2);
    expect(await kinds("plain")).toEqual(["delta", "usage"]);
    expect(await kinds("thought")).toEqual(["reasoning", "usage"]);
    expect(upstream.calls).toHaveLength(2);
  });

  it("keys on endpoint, model, messages and every parameter, and on nothing else", async () => {
    const base = cachedRequest(target, request());
    const key = await cacheKey(base);
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    // A trailing slash and key order do not change the address.
    const same = cachedRequest({ ...target, baseURL: "https://api.example.com/v1" }, request());
    expect(await cacheKey(same)).toBe(key);
    const slashes = cachedRequest(
      { ...target, baseURL: "https://api.example.com/v1///" },
      request(),
    );
    expect(await cacheKey(slashes)).toBe(key);
    // Extra body fields in another order, or one left undefined, are the same request.
    const body = (extraBody: Record<string, unknown>) =>
      cacheKey(cachedRequest(target, request(undefined, { extraBody })));
    const ordered = await body({ a: 1, b: { c: 2, d: 3 }, e: 4, f: 5, g: 6 });
    expect(await body({ g: 6, f: 5, e: 4, b: { d: 3, c: 2 }, a: 1 })).toBe(ordered);
    expect(await body({ f: 5, a: 1, g: 6, b: { d: 3, c: 2 }, e: 4, h: undefined })).toBe(ordered);
    const variants = [
      cachedRequest({ ...target, model: "other" }, request()),
      cachedRequest({ ...target, baseURL: "https://other.example.com/v1" }, request()),
      cachedRequest(target, request("Solve 2+3.")),
      cachedRequest(target, request(undefined, { temperature: 0.7 })),
      cachedRequest(target, request(undefined, { maxTokens: 256 })),
      cachedRequest(target, request(undefined, { extraBody: { reasoning_effort: "high" } })),
      cachedRequest(target, request(undefined, { grammar: 'root ::= "x"' })),
    ];
    const keys = await Promise.all(variants.map((v) => cacheKey(v)));
    expect(new Set([key, ...keys]).size).toBe(variants.length + 1);
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
  });

  it("never stores a failed or aborted call", async () => {
    const upstream = createFakeBackend([
      { error: new LlmError("server", "boom") },
      { text: "half", failAfterChunks: 0, error: new LlmError("dropped") },
      { text: "ok" },
    ]);
    const cache = cacheOf();
    const backend = withCache(upstream, cache, target);
    await expect(collect(backend, request(), signal())).rejects.toThrow(LlmError);
    await expect(collect(backend, request(), signal())).rejects.toThrow(LlmError);
    const aborted = new AbortController();
    aborted.abort();
    await expect(collect(backend, request(), aborted.signal)).rejects.toThrow();
    expect(cache.store.entries.size).toBe(0);
    expect((await collect(backend, request(), signal())).text).toBe("ok");
    expect(cache.store.entries.size).toBe(1);
  });

  it("never stores a stream its caller aborted, even one that ends quietly with usage", async () => {
    const controller = new AbortController();
    // A backend that does not stop when aborted: it streams on to the end, usage included.
    const deaf: ChatBackend = {
      label: "deaf",
      continuesAssistant: false,
      async *stream() {
        yield { type: "delta", text: "half" };
        controller.abort();
        await Promise.resolve();
        yield { type: "delta", text: " and the rest" };
        yield { type: "usage", usage: { promptTokens: 1, completionTokens: 1, estimated: false } };
      },
    };
    const cache = cacheOf();
    await collect(withCache(deaf, cache, target), request(), controller.signal);
    expect(cache.store.entries.size).toBe(0);
    // One that never reports its usage was cut before its end: not stored either.
    const cut = createFakeBackend([{ text: "no end", usage: null }]);
    await collect(withCache(cut, cache, target), request(), signal());
    expect(cache.store.entries.size).toBe(0);
  });

  it("counts an answer it could not store, and the call still succeeds", async () => {
    const upstream = createFakeBackend([{ text: "4" }]);
    const cache = cacheOf();
    cache.store.put = () => Promise.reject(new Error("disk full"));
    const backend = withCache(upstream, cache, target);
    expect((await collect(backend, request(), signal())).text).toBe("4");
    expect(cache.stats.writeErrors).toBe(1);
  });

  it("keeps the wrapped backend's context window and token counter (plans fit the in-browser model)", () => {
    const inner: ChatBackend = {
      ...createFakeBackend([{ text: "x" }]),
      contextWindow: 4096,
      countTokens: (messages) => messages.length * 7,
    };
    for (const b of [withCache(inner, cacheOf(), target), withScope(inner, { task: "t" })]) {
      expect(b.contextWindow).toBe(4096);
      expect(b.countTokens?.([{ role: "user", content: "hi" }])).toBe(7);
      expect(b.label).toBe("fake");
    }
  });

  it("read-only answers hits and never writes; refresh never reads and overwrites", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `answer ${n}` }));
    const shared = memoryCacheStore();
    const rw = withCache(
      upstream,
      { store: shared, mode: "read-write", stats: emptyCacheStats() },
      target,
    );
    await collect(rw, request(), signal());
    const ro = withCache(
      upstream,
      { store: shared, mode: "read-only", stats: emptyCacheStats() },
      target,
    );
    expect((await collect(ro, request(), signal())).text).toBe("answer 0");
    await collect(ro, request("new question"), signal());
    expect(shared.entries.size).toBe(1);
    const refresh = withCache(
      upstream,
      { store: shared, mode: "refresh", stats: emptyCacheStats() },
      target,
    );
    expect((await collect(refresh, request(), signal())).text).toBe("answer 2");
    expect((await collect(rw, request(), signal())).text).toBe("answer 2");
    expect(upstream.calls).toHaveLength(3);
  });

  it("shares one upstream call among identical calls in flight at once", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const upstream = createFakeBackend([{ text: "shared", gate }]);
    const held = heldStore();
    const cache = { store: held.store, mode: "read-write" as const, stats: emptyCacheStats() };
    const backend = withCache(upstream, cache, target);
    const all = atOnce(held, 4, () => collect(backend, request(), signal()));
    await until(() => upstream.calls.length === 1);
    open();
    const answers = await all;
    expect(answers.map((a) => a.text)).toEqual(["shared", "shared", "shared", "shared"]);
    expect(upstream.calls).toHaveLength(1);
    expect(cache.stats).toMatchObject({ hits: 3, misses: 1 });
  });

  it("after a shared call failed, identical calls at once share one call again", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const upstream = createFakeBackend([{ error: new LlmError("server") }, { text: "ok", gate }]);
    const held = heldStore();
    const cache = { store: held.store, mode: "read-write" as const, stats: emptyCacheStats() };
    const backend = withCache(upstream, cache, target);
    await expect(collect(backend, request(), signal())).rejects.toThrow(LlmError);
    const all = atOnce(held, 3, () => collect(backend, request(), signal()));
    await until(() => upstream.calls.length === 2);
    open();
    expect((await all).map((a) => a.text)).toEqual(["ok", "ok", "ok"]);
    expect(upstream.calls).toHaveLength(2);
  });

  it("a stored entry whose request differs (a collision, a hand edit) is not a hit", async () => {
    const upstream = createFakeBackend([{ text: "fresh" }]);
    const cache = cacheOf();
    const described = cachedRequest(target, request());
    const key = await cacheKey(described);
    await cache.store.put({
      format: CACHE_FORMAT,
      version: CACHE_VERSION,
      key,
      createdAt: new Date(0).toISOString(),
      request: { ...described, model: "someone-else" },
      response: {
        text: "stale",
        reasoning: "",
        usage: { promptTokens: 1, completionTokens: 1, estimated: false },
      },
    });
    expect((await collect(withCache(upstream, cache, target), request(), signal())).text).toBe(
      "fresh",
    );
  });
});

describe("a platform's own SHA-256 (sha256Hex)", () => {
  it("files each answer under the key cacheKey gives, so either kind of cache finds it", async () => {
    const hashed: string[] = [];
    const sha256Hex = (text: string) => {
      hashed.push(text);
      return createHash("sha256").update(text, "utf8").digest("hex");
    };
    const store = memoryCacheStore();
    const upstream = createFakeBackend([{ text: "4" }, { text: "never" }]);
    const own = { store, mode: "read-write" as const, stats: emptyCacheStats(), sha256Hex };
    // Non-ASCII text and a lone surrogate: both hash the same UTF-8 bytes.
    const asked = request("Résous 2+2 \ud800 ≥ 4");
    await collect(withCache(upstream, own, target), asked, signal());
    expect([...store.entries.keys()]).toEqual([await cacheKey(cachedRequest(target, asked))]);
    expect(hashed).toHaveLength(1);
    const webCrypto = { store, mode: "read-only" as const, stats: emptyCacheStats() };
    expect((await collect(withCache(upstream, webCrypto, target), asked, signal())).text).toBe("4");
    expect(upstream.calls).toHaveLength(1);
  });
});

describe("repeats: distinct", () => {
  it("gives the n-th identical request of a session the n-th stored answer, so repeats stay samples", async () => {
    const upstream = createFakeBackend((_r, n) => ({ text: `sample ${n}` }));
    const store = memoryCacheStore();
    const session = () =>
      withCache(
        upstream,
        { store, mode: "read-write", stats: emptyCacheStats(), repeats: "distinct" },
        target,
      );
    const twoAnswers = async (backend: ChatBackend) => [
      (await collect(backend, request(), signal())).text,
      (await collect(backend, request(), signal())).text,
    ];
    expect(await twoAnswers(session())).toEqual(["sample 0", "sample 1"]);
    expect(upstream.calls).toHaveLength(2);
    // A re-run of the session: the same two answers, in order, with no upstream call.
    const again = session();
    expect(await twoAnswers(again)).toEqual(["sample 0", "sample 1"]);
    expect(upstream.calls).toHaveLength(2);
    // A third repeat is new.
    expect((await collect(again, request(), signal())).text).toBe("sample 2");
  });

  it("a failed call keeps its number for the retry", async () => {
    const upstream = createFakeBackend([
      { error: new LlmError("server") },
      { text: "retried" },
      { text: "second" },
    ]);
    const cache = {
      store: memoryCacheStore(),
      mode: "read-write" as const,
      stats: emptyCacheStats(),
      repeats: "distinct" as const,
    };
    const backend = withCache(upstream, cache, target);
    await expect(collect(backend, request(), signal())).rejects.toThrow(LlmError);
    expect((await collect(backend, request(), signal())).text).toBe("retried");
    expect([...cache.store.entries.values()].map((e) => e.request.occurrence)).toEqual([0]);
    await collect(backend, request(), signal());
    expect([...cache.store.entries.values()].map((e) => e.request.occurrence).sort()).toEqual([
      0, 1,
    ]);
  });
});
