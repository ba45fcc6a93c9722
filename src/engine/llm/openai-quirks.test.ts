// The OpenAI-compatible adapter against providers as they really answer: each fixture in
// e2e/server/fixtures/ is a raw SSE body written from that provider's documentation, replayed by the
// test server over real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { ErrorCode } from "../errors.ts";
import { callWithRetry } from "../exec/call.ts";
import { DEFAULT_RETRY } from "../exec/retry.ts";
import { llmErrorOf } from "../../test-support/engine/llm/llm-error.ts";
import { TRANSPORTS } from "../../test-support/engine/llm/openai-calls.ts";
import { createOpenAIBackend } from "./openai.ts";
import type { ChatChunk, ChatRequest } from "./types.ts";
import type { LlmError } from "./types.ts";
import { collect } from "./types.ts";

const request: ChatRequest = {
  messages: [{ role: "user", content: "Is 391 prime?" }],
  temperature: 0.2,
  maxTokens: 256,
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

let transport: typeof fetch | undefined;

const backend = (key?: string) =>
  createOpenAIBackend({
    baseURL: server.baseURL,
    model: "m",
    apiKey: key,
    ...(transport ? { fetch: transport } : {}),
  });

async function replay(fixture: string) {
  server.script("m", { fixture });
  return collect(backend(), request, new AbortController().signal);
}

async function failure(fixture: string, key?: string): Promise<LlmError> {
  server.script("m", { fixture });
  return llmErrorOf(() => collect(backend(key), request, new AbortController().signal));
}

describe.each(TRANSPORTS)("over %s", (_name, fetchImpl) => {
  beforeAll(() => {
    transport = fetchImpl;
  });

  describe("reasoning, kept apart from the answer", () => {
    const cases: [string, string, string, number | undefined][] = [
      [
        "deepseek-reasoning-content.sse",
        "17 × 23 = 391, so 391 is not prime.",
        "The user asks for 17 × 23. 17 × 20 = 340 and 17 × 3 = 51, so 391.",
        44,
      ],
      [
        "openrouter-reasoning.sse",
        "391 = 17 × 23: not prime.",
        "Check small primes first. 391 / 17 = 23 exactly.",
        25,
      ],
      [
        "groq-reasoning-xgroq.sse",
        "Not prime: 391 = 17 × 23.",
        "Try 17: 17 × 23 = 391.",
        undefined,
      ],
      [
        "mistral-magistral-parts.sse",
        "391 = 17 × 23, so it is not prime.",
        "391 is odd; try 3, 7, 11, 13, 17. 17 divides it: 23.",
        undefined,
      ],
      [
        "qwen3-think-tags.sse",
        "391 is not prime: 17 × 23.",
        "Okay, 391: try 17. 17 × 23 = 391.\n",
        undefined,
      ],
    ];
    it.each(cases)("%s", async (fixture, answer, reasoning, reasoningTokens) => {
      const result = await replay(fixture);
      expect(result.text).toBe(answer);
      expect(result.reasoning).toBe(reasoning);
      expect(result.usage?.estimated).toBe(false);
      expect(result.usage?.reasoningTokens).toBe(reasoningTokens);
    });

    it("deepseek-r1-unopened-think.sse: the finished call moves the unopened block to reasoning", async () => {
      server.script("m", { fixture: "deepseek-r1-unopened-think.sse" });
      const result = await callWithRetry(
        backend(),
        request,
        new AbortController().signal,
        DEFAULT_RETRY,
      );
      expect(result.text).toBe("No: 391 = 17 × 23.");
      expect(result.reasoning).toBe("Okay, is 391 prime? 17 × 23 = 391.\n");
    });

    it("streams reasoning chunks before the answer's and never as answer text", async () => {
      server.script("m", { fixture: "qwen3-think-tags.sse" });
      const chunks: ChatChunk[] = [];
      for await (const c of backend().stream(request, new AbortController().signal)) chunks.push(c);
      const kinds = chunks.map((c) => c.type);
      expect(kinds.indexOf("reasoning")).toBeLessThan(kinds.indexOf("delta"));
      const deltas = chunks.flatMap((c) => (c.type === "delta" ? [c.text] : []));
      expect(deltas.join("")).not.toMatch(/think|Okay/);
    });
  });

  describe("content as an array of parts", () => {
    it("joins text parts and ignores other parts, never [object Object]", async () => {
      const { text, reasoning } = await replay("content-parts.sse");
      expect(text).toBe("391 = 17 × 23.");
      expect(reasoning).toBe("");
    });
  });

  describe("a server that ignores stream: true", () => {
    it("reads its one whole completion, reasoning and usage included", async () => {
      const completion = {
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "Not prime.", reasoning_content: "17 × 23." },
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: 9, completion_tokens: 4 },
      };
      const json: typeof fetch = () =>
        Promise.resolve(
          new Response(JSON.stringify(completion), {
            headers: { "Content-Type": "application/json" },
          }),
        );
      const b = createOpenAIBackend({ baseURL: "http://127.0.0.1:9/v1", model: "m", fetch: json });
      const result = await collect(b, request, new AbortController().signal);
      expect(result).toEqual({
        text: "Not prime.",
        reasoning: "17 × 23.",
        usage: { promptTokens: 9, completionTokens: 4, estimated: false },
      });
    });
  });

  describe("usage where providers put it", () => {
    it("takes x_groq.usage when there is no top-level usage", async () => {
      const { usage } = await replay("groq-reasoning-xgroq.sse");
      expect(usage).toMatchObject({ promptTokens: 33, completionTokens: 27, estimated: false });
    });

    it("takes the last of a usage repeated on every chunk", async () => {
      const { usage } = await replay("usage-every-chunk.sse");
      expect(usage).toEqual({ promptTokens: 50, completionTokens: 3, estimated: false });
    });

    it("reads llama.cpp's timings", async () => {
      const { usage } = await replay("llamacpp-timings.sse");
      expect(usage).toEqual({ promptTokens: 42, completionTokens: 9, estimated: false });
    });

    it("keeps OpenRouter's own cost figure", async () => {
      const { usage } = await replay("openrouter-reasoning.sse");
      expect(usage?.providerCost).toBe(0.0000423);
    });
  });

  describe("errors inside a 200 stream", () => {
    const cases: [string, ErrorCode, boolean, RegExp][] = [
      [
        "openrouter-error-midstream.sse",
        "server",
        true,
        /502 inside the stream.*Provider returned error.*DeepInfra.*upstream connect error/,
      ],
      ["stream-error-400.sse", "bad_request", false, /400 inside the stream.*max_tokens must be/],
      ["event-error-overloaded.sse", "server", true, /Overloaded/],
      ["event-error-429.sse", "rate_limited", true, /429 inside the stream.*Rate limit exceeded/],
    ];
    it.each(cases)("%s", async (fixture, code, retryable, message) => {
      const error = await failure(fixture);
      expect(error.code).toBe(code);
      expect(error.retryable).toBe(retryable);
      expect(error.message).toMatch(message);
    });

    it("reads a 413 as a request that is too large, and not retryable", async () => {
      server.script("m", { status: 413, errorMessage: "Request Entity Too Large" });
      const error = await failure("none");
      expect(error.code).toBe("request_too_large");
      expect(error.message).toMatch(/too large/);
      expect(error.retryable).toBe(false);
    });

    it("reads a 400 that says the key is invalid (Gemini) as a key problem", async () => {
      server.script("m", {
        status: 400,
        errorMessage: "API key not valid. Please pass a valid API key.",
      });
      const error = await failure("none");
      expect(error.code).toBe("auth");
      expect(error.status).toBe(400);
    });
  });

  describe("extra request fields", () => {
    it("merges them into the body, over the defaults", async () => {
      server.setDefault("m", "ok");
      const extraBody = { chat_template_kwargs: { enable_thinking: false }, temperature: 0.6 };
      await collect(backend(), { ...request, extraBody }, new AbortController().signal);
      expect(server.requests[0]?.body).toMatchObject({ ...extraBody, model: "m", stream: true });
    });

    it("refuses fields that would replace model, messages or stream, before sending", async () => {
      const run = collect(
        backend(),
        { ...request, extraBody: { model: "other", stream: false } },
        new AbortController().signal,
      );
      await expect(run).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/cannot override "model", "stream"/) as unknown,
      });
      expect(server.requests).toEqual([]);
    });
  });

  describe("cancel stops the request at the HTTP level", () => {
    it("closes the connection while waiting for the first byte", async () => {
      const controller = new AbortController();
      // The abort comes once the server holds the request, before it answers anything.
      server.script("m", () => {
        controller.abort();
        return { content: "late", latencyMs: 5_000 };
      });
      await expect(collect(backend(), request, controller.signal)).rejects.toMatchObject({
        code: "aborted",
      });
      await expect
        .poll(() => server.disconnects)
        .toEqual([expect.objectContaining({ model: "m", phase: "waiting" })]);
    });

    it("closes the connection mid-stream", async () => {
      server.script("m", { chunks: ["one ", "two ", "three"], chunkDelayMs: 1_000 });
      const controller = new AbortController();
      const run = collect(backend(), request, controller.signal, () => controller.abort());
      await expect(run).rejects.toMatchObject({ code: "aborted" });
      await expect
        .poll(() => server.disconnects)
        .toEqual([expect.objectContaining({ phase: "streaming" })]);
    });
  });
});
