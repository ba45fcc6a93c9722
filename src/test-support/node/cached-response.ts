// Test support: a stored model response, as the file and Redis caches keep one. Not a test file.
import type { CachedResponse } from "../../engine/llm/cache.ts";
import { CACHE_FORMAT, CACHE_VERSION } from "../../engine/llm/cache.ts";

/** A stored response for `key` whose answer is `text`. */
export function cachedResponse(key: string, text: string): CachedResponse {
  return {
    format: CACHE_FORMAT,
    version: CACHE_VERSION,
    key,
    createdAt: "2026-01-01T00:00:00.000Z",
    request: {
      endpoint: "http://x/v1",
      model: "m",
      messages: [{ role: "user", content: "q" }],
      temperature: 0,
      maxTokens: 10,
      extraBody: null,
      grammar: null,
      scope: null,
      occurrence: 0,
    },
    response: {
      text,
      reasoning: "",
      usage: { promptTokens: 1, completionTokens: 1, estimated: false },
    },
  };
}
