import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { ErrorCode } from "../errors.ts";
import type { OpenAIBackendOptions } from "./openai.ts";
import { llmErrorOf } from "../../test-support/engine/llm/llm-error.ts";
import { TRANSPORTS } from "../../test-support/engine/llm/openai-calls.ts";
import { createOpenAIBackend, estimateTokens } from "./openai.ts";
import type { ChatRequest } from "./types.ts";
import { collect } from "./types.ts";

const KEY = "sk-test-0123456789abcdef";
const request: ChatRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Say hello." },
  ],
  temperature: 0.2,
  maxTokens: 64,
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ keys: { locked: KEY } });
});
afterEach(() => server.reset());
afterAll(() => server.close());

let transport: typeof fetch | undefined;

function backend(model: string, extra: Partial<OpenAIBackendOptions> = {}) {
  return createOpenAIBackend({
    baseURL: server.baseURL,
    model,
    ...(transport ? { fetch: transport } : {}),
    ...extra,
  });
}

/** Runs a call expected to fail and returns its LlmError. */
async function failure(
  model: string,
  extra: Partial<OpenAIBackendOptions> = {},
  signal?: AbortSignal,
) {
  return llmErrorOf(() =>
    collect(backend(model, extra), request, signal ?? new AbortController().signal),
  );
}

describe.each(TRANSPORTS)("over %s", (_name, fetchImpl) => {
  beforeAll(() => {
    transport = fetchImpl;
  });

  describe("streaming", () => {
    it("yields deltas that concatenate to the content, then one usage from the server", async () => {
      server.script("m", {
        chunks: ["Hel", "lo", ", world"],
        usage: { prompt_tokens: 11, completion_tokens: 3 },
      });
      const deltas: string[] = [];
      const kinds: string[] = [];
      for await (const chunk of backend("m").stream(request, new AbortController().signal)) {
        kinds.push(chunk.type);
        if (chunk.type === "delta") deltas.push(chunk.text);
      }
      expect(deltas).toEqual(["Hel", "lo", ", world"]);
      expect(kinds.filter((k) => k === "usage")).toHaveLength(1);
      expect(kinds.at(-1)).toBe("usage");
    });

    it("reports the server's usage and OpenRouter-style cost", async () => {
      server.script("m", {
        content: "ok",
        usage: { prompt_tokens: 40, completion_tokens: 2, cost: 0.0012 },
      });
      const { text, usage } = await collect(backend("m"), request, new AbortController().signal);
      expect(text).toBe("ok");
      expect(usage).toEqual({
        promptTokens: 40,
        completionTokens: 2,
        estimated: false,
        providerCost: 0.0012,
      });
    });

    it("estimates usage when the server sends none", async () => {
      server.script("m", { content: "Hello there, friend.", usage: false });
      const { usage } = await collect(backend("m"), request, new AbortController().signal);
      expect(usage?.estimated).toBe(true);
      expect(usage?.completionTokens).toBe(estimateTokens("Hello there, friend."));
      expect(usage?.promptTokens).toBeGreaterThan(0);
      expect(usage?.providerCost).toBeUndefined();
    });

    it("treats empty content with a proper finish as empty text", async () => {
      server.script("m", { content: "" });
      const { text, usage } = await collect(backend("m"), request, new AbortController().signal);
      expect(text).toBe("");
      expect(usage).toBeDefined();
    });

    it("accepts a stream that ends with [DONE] but no finish_reason", async () => {
      server.script("m", { content: "fine", omitFinish: true, usage: false });
      const { text, usage } = await collect(backend("m"), request, new AbortController().signal);
      expect(text).toBe("fine");
      expect(usage?.estimated).toBe(true);
    });

    it("treats a stream that stops cleanly without finish_reason or [DONE] as dropped", async () => {
      server.script("m", { content: "cut short", omitFinish: true, omitDone: true, usage: false });
      const error = await failure("m");
      expect(error.code).toBe("dropped");
    });

    it("sends the request as a streamed chat call with usage requested", async () => {
      server.setDefault("m", "x");
      await collect(backend("m"), request, new AbortController().signal);
      expect(server.requests[0]?.body).toMatchObject({
        model: "m",
        messages: request.messages,
        temperature: 0.2,
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      });
    });
  });

  describe("headers", () => {
    it("sends Authorization exactly when a key is set", async () => {
      server.setDefault("m", "x");
      await collect(backend("m"), request, new AbortController().signal);
      await collect(backend("m", { apiKey: KEY }), request, new AbortController().signal);
      const auth = server.requests.map((r) => r.headers.authorization);
      expect(auth).toEqual([undefined, `Bearer ${KEY}`]);
    });

    it("passes a keyed endpoint with the right key and sends custom headers", async () => {
      server.setDefault("locked", "in");
      const headers = { "HTTP-Referer": "https://conductor.studio", "X-Title": "Conductor Studio" };
      const { text } = await collect(
        backend("locked", { apiKey: KEY, headers }),
        request,
        new AbortController().signal,
      );
      expect(text).toBe("in");
      expect(server.requests[0]?.headers).toMatchObject({
        "http-referer": "https://conductor.studio",
        "x-title": "Conductor Studio",
      });
    });

    it("sends none of the client's X-Stainless telemetry headers (they break strict CORS preflights)", async () => {
      server.setDefault("m", "x");
      await collect(backend("m", { apiKey: KEY }), request, new AbortController().signal);
      const names = Object.keys(server.requests[0]?.headers ?? {});
      expect(names.filter((h) => h.startsWith("x-stainless"))).toEqual([]);
      expect(names).toContain("authorization");
    });

    it("labels itself with model and host, never the key", () => {
      const b = backend("m", { apiKey: KEY });
      expect(b.label).toBe(`m @ ${new URL(server.url).host}`);
      expect(b.continuesAssistant).toBe(false);
    });
  });

  describe("errors", () => {
    const cases: [string, Parameters<TestServer["script"]>[1], ErrorCode, number | undefined][] = [
      ["404", { status: 404 }, "not_found", 404],
      ["500", { status: 500, errorMessage: "upstream exploded" }, "server", 500],
      [
        "400 context",
        { status: 400, errorMessage: "This model's maximum context length is 8192 tokens." },
        "context_length",
        400,
      ],
      ["400 other", { status: 400, errorMessage: "temperature is invalid" }, "bad_request", 400],
      ["drop mid-stream", { chunks: ["a", "b", "c", "d"], drop: "mid" }, "dropped", undefined],
      // A socket closed before any header is indistinguishable from a refused connection: network.
      ["drop before headers", { drop: "before" }, "network", undefined],
    ];
    it.each(cases)("maps %s", async (_name, reply, code, status) => {
      server.script("m", reply);
      const error = await failure("m");
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
    });

    it("maps 401 to auth and never puts the key in the message", async () => {
      server.script("m", { status: 401, errorMessage: `Incorrect API key provided: ${KEY}.` });
      const error = await failure("m", { apiKey: KEY });
      expect(error.code).toBe("auth");
      expect(error.message).toContain("[redacted]");
      expect(error.message).not.toContain(KEY);
      const wrong = await failure("locked", { apiKey: "sk-wrong-key-123" });
      expect(wrong.code).toBe("auth");
    });

    it("maps 429 to rate_limited with Retry-After in ms", async () => {
      server.script("m", { status: 429, retryAfter: "2" });
      const error = await failure("m");
      expect(error.code).toBe("rate_limited");
      expect(error.retryAfterMs).toBe(2000);
      expect(error.retryable).toBe(true);
    });

    it("maps an unreachable port to network", async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const error = await failure("m", { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: KEY });
      expect(error.code).toBe("network");
      expect(error.message).not.toContain(KEY);
    });

    it("maps a slow first byte past timeoutMs to timeout", async () => {
      server.script("m", { content: "late", latencyMs: 200 });
      const error = await failure("m", { timeoutMs: 20 });
      expect(error.code).toBe("timeout");
    });

    it("cuts a stream silent past idleTimeoutMs, with a timeout the executor may retry", async () => {
      server.script("m", { chunks: ["first ", "late"], chunkDelayMs: 2_000 });
      const error = await failure("m", { idleTimeoutMs: 150 });
      expect(error.code).toBe("timeout");
      expect(error.retryable).toBe(true);
      expect(error.message).toContain("idle time-out");
      // The stalled call was given up on: the server saw its client leave mid-stream. (Polled: the
      // previous test's abandoned call may be counted here too, and this one may come a moment late.)
      await expect
        .poll(() => server.disconnects)
        .toContainEqual(expect.objectContaining({ model: "m", phase: "streaming" }));
    });

    it("lets a slow stream that keeps sending run longer than its idle time-out", async () => {
      const chunks = Array.from({ length: 8 }, (_, i) => `${i} `);
      server.script("m", { chunks, chunkDelayMs: 40 });
      // 8 chunks 40 ms apart take about 300 ms in all, twice the idle limit, each gap well under it.
      const r = await collect(
        backend("m", { idleTimeoutMs: 150 }),
        request,
        new AbortController().signal,
      );
      expect(r.text).toBe(chunks.join(""));
    });

    it("maps an abort before the answer starts to aborted", async () => {
      server.script("m", { content: "never", latencyMs: 200 });
      const controller = new AbortController();
      // Abort once the request is in flight: deterministic, no timer in the test.
      const abortingFetch: typeof fetch = (input, init) => {
        const response = (transport ?? fetch)(input, init);
        controller.abort();
        return response;
      };
      const error = await failure("m", { fetch: abortingFetch }, controller.signal);
      expect(error.code).toBe("aborted");
    });

    it("maps an abort mid-stream to aborted, after the deltas so far", async () => {
      server.script("m", { chunks: ["one ", "two ", "three"], chunkDelayMs: 30 });
      const controller = new AbortController();
      const seen: string[] = [];
      const run = collect(backend("m"), request, controller.signal, (t) => {
        seen.push(t);
        controller.abort();
      });
      await expect(run).rejects.toMatchObject({ code: "aborted" });
      expect(seen).toEqual(["one "]);
    });
  });
});
