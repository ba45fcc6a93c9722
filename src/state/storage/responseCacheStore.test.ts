import { Dexie } from "dexie";
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import type { CachedResponse } from "../../engine/llm/cache.ts";
import { CACHE_FORMAT, CACHE_VERSION, cachedRequest, cacheKey } from "../../engine/llm/cache.ts";
import { createIdbCacheStore } from "./responseCacheStore.ts";

let n = 0;
function fresh() {
  const deps = { indexedDB: new IDBFactory(), IDBKeyRange };
  const name = `cache-${n++}`;
  return { store: createIdbCacheStore(name, deps), deps, name };
}

async function entry(question: string): Promise<CachedResponse> {
  const request = cachedRequest(
    { baseURL: "https://api.example.com/v1", model: "m" },
    { messages: [{ role: "user", content: question }], temperature: 0.2, maxTokens: 64 },
  );
  return {
    format: CACHE_FORMAT,
    version: CACHE_VERSION,
    key: await cacheKey(request),
    createdAt: "2026-01-01T00:00:00.000Z",
    request,
    response: {
      text: `answer to ${question}`,
      reasoning: "",
      usage: { promptTokens: 10, completionTokens: 2, estimated: false },
    },
  };
}

describe("the response cache in IndexedDB", () => {
  it("keeps entries by key, says its size, and clears", async () => {
    const { store } = fresh();
    const a = await entry("What is 2+2?");
    const b = await entry("What is 3+3?");
    expect(await store.get(a.key)).toBeUndefined();
    await store.put(a);
    await store.put(b);
    await store.put(a);
    expect(await store.get(a.key)).toEqual(a);
    const size = await store.size();
    expect(size).toMatchObject({ ok: true, entries: 2 });
    const bytes = JSON.stringify(a).length + JSON.stringify(b).length;
    expect(size.ok && size.bytes).toBe(bytes);
    expect(await store.clear()).toEqual({ ok: true });
    expect(await store.get(a.key)).toBeUndefined();
    expect(await store.size()).toMatchObject({ ok: true, entries: 0, bytes: 0 });
  });

  it("treats a row that does not validate, or names another key, as a miss", async () => {
    const { store, deps, name } = fresh();
    const a = await entry("What is 2+2?");
    await store.put(a);
    const db = new Dexie(name, deps);
    db.version(1).stores({ entries: "key, size" });
    const rows = db.table("entries");
    await rows.put({ key: "sha256:bad", v: CACHE_VERSION, size: 1, entry: { text: "x" } });
    // A row moved under another key (a tampered store) is not that key's answer.
    await rows.put({ key: "sha256:moved", v: CACHE_VERSION, size: 1, entry: a });
    await rows.put({ ...(await rows.get(a.key)), v: CACHE_VERSION + 1 });
    db.close();
    expect(await store.get("sha256:bad")).toBeUndefined();
    expect(await store.get("sha256:moved")).toBeUndefined();
    expect(await store.get(a.key)).toBeUndefined();
  });

  it("a full disk rejects the write and names the cause; reads still work", async () => {
    const { store } = fresh();
    const a = await entry("What is 2+2?");
    await store.put(a);
    const proto = IDBObjectStore.prototype as { put: IDBObjectStore["put"] };
    const put = proto.put;
    proto.put = function () {
      throw new DOMException("full", "QuotaExceededError");
    };
    try {
      await expect(store.put(await entry("What is 3+3?"))).rejects.toBeDefined();
    } finally {
      proto.put = put;
    }
    expect(store.writeFailure()).toMatchObject({ code: "cache_full" });
    expect(store.writeFailure()?.message).toMatch(/no room left for the response cache/);
    expect(await store.get(a.key)).toEqual(a);
    // The next good write forgets the failure.
    await store.put(await entry("What is 4+4?"));
    expect(store.writeFailure()).toBeNull();
  });
});
