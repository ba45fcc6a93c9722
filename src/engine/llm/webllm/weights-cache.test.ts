import { describe, expect, it } from "vitest";
import type { CacheLike, CacheStorageLike, ResponseLike } from "./weights-cache.ts";
import { inspectCachedModel, removeCachedModel } from "./weights-cache.ts";

type Entry = { size: number; header?: boolean; json?: unknown };

/** An in-memory stand-in for the browser's CacheStorage. */
function fakeCaches(content: Record<string, Record<string, Entry>>) {
  const opened: string[] = [];
  const storage: CacheStorageLike = {
    has: (name) => Promise.resolve(name in content),
    open(name) {
      opened.push(name);
      const entries = (content[name] ??= {});
      const cache: CacheLike = {
        keys: () => Promise.resolve(Object.keys(entries).map((url) => ({ url }))),
        match(url) {
          const e = entries[url];
          if (!e) return Promise.resolve(undefined);
          const response: ResponseLike = {
            headers: {
              get: (h) => (h === "content-length" && e.header !== false ? String(e.size) : null),
            },
            blob: () => Promise.resolve({ size: e.size }),
            json: () => Promise.resolve(e.json),
          };
          return Promise.resolve(response);
        },
        delete(url) {
          const had = url in entries;
          delete entries[url];
          return Promise.resolve(had);
        },
      };
      return Promise.resolve(cache);
    },
  };
  return { storage, content, opened };
}

const MB = 1 << 20;
const BASE = "https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC/resolve/main/";
const LIB =
  "https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base/Qwen2-0.5B-Instruct-q4f16_1_cs1k-webgpu.wasm";
const RECORD = {
  model: "https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f16_1-MLC",
  model_lib: LIB,
};
const MANIFEST = {
  records: [{ dataPath: "params_shard_0.bin" }, { dataPath: "params_shard_1.bin" }],
};

function cached(shards: number) {
  const model: Record<string, Entry> = {
    [`${BASE}tensor-cache.json`]: { size: 1000, json: MANIFEST },
    [`${BASE}tokenizer.json`]: { size: 7 * MB, header: false },
    "https://huggingface.co/mlc-ai/Other-MLC/resolve/main/params_shard_0.bin": { size: 99 * MB },
  };
  for (let i = 0; i < shards; i++) model[`${BASE}params_shard_${i}.bin`] = { size: 32 * MB };
  return {
    "webllm/model": model,
    "webllm/config": { [`${BASE}mlc-chat-config.json`]: { size: 2000 } },
    "webllm/wasm": { [LIB]: { size: 4 * MB } },
  };
}

describe("inspectCachedModel", () => {
  it("sums a complete model's files (header or blob size) and its library", async () => {
    const { storage } = fakeCaches(cached(2));
    const files = await inspectCachedModel(storage, RECORD);
    expect(files).toEqual({
      bytes: 1000 + 7 * MB + 64 * MB + 2000 + 4 * MB,
      files: 6,
      complete: true,
      hasManifest: true,
    });
  });

  it("sees a partial download as incomplete", async () => {
    const { storage } = fakeCaches(cached(1));
    expect(await inspectCachedModel(storage, RECORD)).toMatchObject({
      complete: false,
      files: 5,
      hasManifest: true,
    });
  });

  it("reports nothing for a model that was never downloaded, without creating caches", async () => {
    const { storage, opened } = fakeCaches({});
    expect(await inspectCachedModel(storage, RECORD)).toEqual({
      bytes: 0,
      files: 0,
      complete: false,
      hasManifest: false,
    });
    expect(opened).toEqual([]);
  });

  it("treats an unreadable manifest as incomplete", async () => {
    const content = cached(2);
    content["webllm/model"][`${BASE}tensor-cache.json`] = { size: 10, json: { nope: true } };
    expect((await inspectCachedModel(fakeCaches(content).storage, RECORD)).complete).toBe(false);
  });
});

describe("removeCachedModel", () => {
  it("deletes the model's files and library, and leaves other models alone", async () => {
    const { storage, content } = fakeCaches(cached(1));
    expect(await removeCachedModel(storage, RECORD)).toBe(5);
    expect(Object.keys(content["webllm/model"] ?? {})).toEqual([
      "https://huggingface.co/mlc-ai/Other-MLC/resolve/main/params_shard_0.bin",
    ]);
    expect(content["webllm/config"]).toEqual({});
    expect(content["webllm/wasm"]).toEqual({});
  });

  it("keeps a library another model shares", async () => {
    const { storage, content } = fakeCaches(cached(2));
    expect(await removeCachedModel(storage, RECORD, true)).toBe(5);
    expect(Object.keys(content["webllm/wasm"] ?? {})).toEqual([LIB]);
  });
});
