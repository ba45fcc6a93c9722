import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../engine/llm/types.ts";
import { createFakeBackend } from "../test-support/engine/llm/fake-backend.ts";
import type { ResponseCache } from "../engine/llm/cache.ts";
import { canonicalJson, withCache, withScope } from "../engine/llm/cache.ts";
import type { ChatBackend } from "../engine/llm/types.ts";
import {
  cacheFile,
  fileCacheStore,
  openResponseCache,
  parseCacheMode,
  sha256Hex,
} from "./cache-store.ts";
import { UsageError } from "./command.ts";
import { cachedResponse } from "../test-support/node/cached-response.ts";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function tempDir() {
  const d = await mkdtemp(join(tmpdir(), "conductor-cache-"));
  dirs.push(d);
  return d;
}
const request = {
  messages: [{ role: "user" as const, content: "Name a prime." }],
  temperature: 0.2,
  maxTokens: 64,
};
const target = { baseURL: "http://127.0.0.1:9/v1", model: "m" };
/** `request` through `cache` over `upstream`. */
const ask = (upstream: ChatBackend, cache: ResponseCache) =>
  collect(withCache(upstream, cache, target), request, new AbortController().signal);
/** `request` as version 1 described it (no scope). */
const v1Request = {
  endpoint: target.baseURL,
  model: "m",
  messages: request.messages,
  temperature: 0.2,
  maxTokens: 64,
  extraBody: null,
  grammar: null,
  occurrence: 0,
};

describe("sha256Hex", () => {
  it("is the SHA-256 of the text's UTF-8, as Web Crypto computes it", async () => {
    for (const text of ["", "abc", "Résous ≥ 4 😀", "lone \ud800 surrogate"]) {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
      const hex = Buffer.from(digest).toString("hex");
      expect(sha256Hex(text)).toBe(hex);
    }
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("is the hash a --cache DIR cache keys with", async () => {
    const cache = await openResponseCache(await tempDir(), undefined);
    expect(cache?.sha256Hex).toBe(sha256Hex);
  });
});

describe("the file cache store (--cache DIR)", () => {
  it("writes one readable JSON file per response, under v2/<2 hex>/<64 hex>.json, and reads it back", async () => {
    const dir = await tempDir();
    const cache = await openResponseCache(dir, undefined);
    const upstream = createFakeBackend([{ text: "7" }]);
    await ask(upstream, cache!);
    // A second process (a new store over the same directory) gets the hit.
    const again = await openResponseCache(dir, "read-only");
    const other = createFakeBackend([{ text: "never" }]);
    const hit = await ask(other, again!);
    expect(hit.text).toBe("7");
    expect(other.calls).toHaveLength(0);
    const shards = await readdir(join(dir, "v2"));
    expect(shards).toHaveLength(1);
    const [file] = await readdir(join(dir, "v2", shards[0]!));
    expect(file).toMatch(/^[0-9a-f]{64}\.json$/);
    const entry = JSON.parse(await readFile(join(dir, "v2", shards[0]!, file!), "utf8")) as {
      format: string;
      request: { messages: unknown[] };
    };
    expect(entry.format).toBe("conductor-studio-response");
    expect(entry.request.messages).toEqual(request.messages);
    expect(JSON.parse(await readFile(join(dir, "conductor-cache.json"), "utf8"))).toMatchObject({
      format: "conductor-studio-response",
      version: 2,
      layout: "v2/<2 hex>/<64 hex>.json",
    });
  });

  it("never reads a version 1 entry (its session count could give one answer to two tasks)", async () => {
    const dir = await tempDir();
    // A version 1 directory: its marker, and the answer to `request` where version 1 kept it.
    const old = `["conductor-studio-response",1,${canonicalJson(v1Request)}]`;
    const hex = createHash("sha256").update(old).digest("hex");
    await mkdir(join(dir, "v1", hex.slice(0, 2)), { recursive: true });
    const marker = {
      format: "conductor-studio-response",
      version: 1,
      layout: "v1/<2 hex>/<64 hex>.json",
    };
    await writeFile(join(dir, "conductor-cache.json"), JSON.stringify(marker));
    const entry = {
      format: "conductor-studio-response",
      version: 1,
      key: `sha256:${hex}`,
      createdAt: "2026-01-01T00:00:00.000Z",
      request: v1Request,
      response: {
        text: "stale",
        reasoning: "",
        usage: { promptTokens: 1, completionTokens: 1, estimated: false },
      },
    };
    await writeFile(join(dir, "v1", hex.slice(0, 2), `${hex}.json`), JSON.stringify(entry));
    const cache = await openResponseCache(dir, undefined, "distinct");
    const upstream = createFakeBackend([{ text: "fresh" }]);
    const answer = await ask(upstream, cache!);
    expect(answer.text).toBe("fresh");
    expect(upstream.calls).toHaveLength(1);
    // The old files stay where they were; the marker now names the version written.
    expect(await readdir(join(dir, "v1", hex.slice(0, 2)))).toEqual([`${hex}.json`]);
    expect(JSON.parse(await readFile(join(dir, "conductor-cache.json"), "utf8"))).toMatchObject({
      version: 2,
    });
    // Nor does a version 1 entry pass for a version 2 one at its key.
    const store = await fileCacheStore(dir);
    const key = `sha256:${"cd".repeat(32)}`;
    await mkdir(join(cacheFile(dir, key), ".."), { recursive: true });
    await writeFile(cacheFile(dir, key), JSON.stringify({ ...entry, key }));
    expect(await store.get(key)).toBeUndefined();
  });

  it("reads back an evaluation's answer in another process, with its task and place", async () => {
    const dir = await tempDir();
    const cache = await openResponseCache(dir, undefined, "distinct");
    const task = { task: '["q1","chain",0]' };
    const upstream = createFakeBackend([{ text: "own" }]);
    const asked = { ...request, site: "r0.s0" };
    const signal = new AbortController().signal;
    await collect(withScope(withCache(upstream, cache!, target), task), asked, signal);
    const again = await openResponseCache(dir, "read-only", "distinct");
    const other = createFakeBackend([{ text: "never" }]);
    const hit = await collect(withScope(withCache(other, again!, target), task), asked, signal);
    expect(hit.text).toBe("own");
    expect(other.calls).toHaveLength(0);
  });

  it("treats a torn or foreign file as a miss", async () => {
    const dir = await tempDir();
    const store = await fileCacheStore(dir);
    const key = `sha256:${"ab".repeat(32)}`;
    const file = cacheFile(dir, key);
    await store.put(cachedResponse(key, "x"));
    expect(await store.get(key)).toBeDefined();
    await writeFile(file, "{ torn");
    expect(await store.get(key)).toBeUndefined();
    expect(() => cacheFile(dir, "../../etc/passwd")).toThrow(RangeError);
  });

  it("fails a write it cannot finish, leaving whatever was there, and no temporary file behind a written one", async () => {
    const dir = await tempDir();
    const store = await fileCacheStore(dir);
    const key = `sha256:${"cd".repeat(32)}`;
    const entry = (text: string) => cachedResponse(key, text);
    await store.put(entry("first"));
    await store.put(entry("second"));
    expect((await store.get(key))?.response.text).toBe("second");
    const shard = join(cacheFile(dir, key), "..");
    expect(await readdir(shard)).toEqual([`${"cd".repeat(32)}.json`]);
    // The entry's name taken by a folder: the rename into place fails, and so does the write.
    const other = `sha256:${"ce".repeat(32)}`;
    await mkdir(cacheFile(dir, other), { recursive: true });
    await expect(store.put({ ...entry("x"), key: other })).rejects.toThrow();
    expect(await store.get(other)).toBeUndefined();
    // The shard folder (made once) replaced by a file: the temporary file cannot be written.
    await rm(shard, { recursive: true });
    await writeFile(shard, "not a folder");
    await expect(store.put(entry("third"))).rejects.toThrow();
  });

  it("checks --cache-mode", async () => {
    expect(parseCacheMode(undefined)).toBe("read-write");
    expect(parseCacheMode("refresh")).toBe("refresh");
    expect(() => parseCacheMode("write-only")).toThrow(UsageError);
    await expect(openResponseCache(undefined, "read-only")).rejects.toThrow(UsageError);
    expect(await openResponseCache(undefined, undefined)).toBeUndefined();
  });
});
