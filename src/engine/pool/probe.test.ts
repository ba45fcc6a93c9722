import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import { describeOutcome, fetchModels, testConnection } from "./probe.ts";

const KEY = "sk-probe-0123456789abcdef";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ keys: { locked: KEY }, models: ["listed-only"] });
});
afterEach(() => server.reset());
afterAll(() => server.close());

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const chatCalls = () => server.requests.filter((r) => r.path === "/v1/chat/completions");

describe("testConnection", () => {
  it("sends the smallest request and reports success with latency", async () => {
    server.setDefault("m", { content: "Hello", latencyMs: 30 });
    const outcome = await testConnection({ baseURL: server.baseURL, model: "m" });
    expect(outcome.kind).toBe("ok");
    if (outcome.kind === "ok") expect(outcome.latencyMs).toBeGreaterThanOrEqual(25);
    expect(describeOutcome(outcome)).toMatch(/^Connected\. \d+ ms\.$/);
    const [call] = chatCalls();
    expect(call?.body).toEqual({
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
      max_tokens: 1,
      stream: false,
    });
    expect(call?.headers.authorization).toBeUndefined();
  });

  it("sends the key as a bearer token and the worker's headers", async () => {
    server.setDefault("locked", "ok");
    const outcome = await testConnection({
      baseURL: server.baseURL,
      model: "locked",
      apiKey: KEY,
      headers: { "anthropic-dangerous-direct-browser-access": "true" },
    });
    expect(outcome.kind).toBe("ok");
    expect(chatCalls()[0]?.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      "anthropic-dangerous-direct-browser-access": "true",
    });
  });

  it.each([
    ["a wrong key", "locked", {}, "auth", 401],
    ["an unknown model", "nobody", {}, "not_found", 404],
    ["a rate limit", "busy", { status: 429 }, "rate_limited", 429],
    ["a server error", "broken", { status: 500 }, "server", 500],
    ["a bad request", "picky", { status: 400 }, "rejected", 400],
  ] as const)("tells %s apart", async (_what, model, reply, kind, status) => {
    if ("status" in reply) server.setDefault(model, reply);
    const outcome = await testConnection({ baseURL: server.baseURL, model, apiKey: "sk-wrong" });
    expect(outcome).toMatchObject({ kind, status });
    expect(describeOutcome(outcome)).toContain(`HTTP ${status}`);
  });

  it("reports a refused connection as blocked or unreachable", async () => {
    const port = await closedPort();
    const outcome = await testConnection({ baseURL: `http://127.0.0.1:${port}/v1`, model: "m" });
    expect(outcome.kind).toBe("blocked_or_unreachable");
    expect(describeOutcome(outcome)).toMatch(/^Blocked by the browser \(CORS\) or unreachable/);
  });

  it("reports a slow endpoint as a timeout", async () => {
    server.setDefault("slow", { content: "late", latencyMs: 500 });
    const outcome = await testConnection(
      { baseURL: server.baseURL, model: "slow" },
      { timeoutMs: 50 },
    );
    expect(outcome.kind).toBe("timeout");
  });

  it("refuses a base URL that is not http(s) without sending anything", async () => {
    expect((await testConnection({ baseURL: "ftp://x", model: "m" })).kind).toBe("bad_url");
    expect((await testConnection({ baseURL: "not a url", model: "m" })).kind).toBe("bad_url");
  });

  it("never echoes the key in what it reports", async () => {
    server.setDefault("echo", { status: 401, errorMessage: `Incorrect API key provided: ${KEY}` });
    const outcome = await testConnection({ baseURL: server.baseURL, model: "echo", apiKey: KEY });
    expect(describeOutcome(outcome)).not.toContain(KEY);
    expect(describeOutcome(outcome)).toContain("[redacted]");
  });

  it("uses max_completion_tokens for OpenAI's own API", async () => {
    let seen: unknown;
    const fakeFetch: typeof fetch = (_url, init) => {
      seen = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      return Promise.resolve(new Response("{}", { status: 200 }));
    };
    await testConnection(
      { baseURL: "https://api.openai.com/v1", model: "gpt-5" },
      { fetch: fakeFetch },
    );
    expect(seen).toMatchObject({ max_completion_tokens: 1 });
    expect(seen).not.toHaveProperty("max_tokens");
  });
});

describe("fetchModels", () => {
  it("lists the endpoint's models, sorted and unique", async () => {
    server.setDefault("zeta", "z");
    server.setDefault("alpha", "a");
    const result = await fetchModels({ baseURL: `${server.baseURL}/` });
    expect(result).toEqual({ ok: true, models: ["alpha", "listed-only", "zeta"] });
    expect(server.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/models" });
  });

  it("reports an endpoint without a model list", async () => {
    const result = await fetchModels({ baseURL: server.url }); // no /v1: 404
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.outcome.kind).toBe("not_found");
  });

  it("reports a list that is not in the OpenAI shape", async () => {
    const fakeFetch: typeof fetch = () =>
      Promise.resolve(new Response(JSON.stringify({ models: ["a"] }), { status: 200 }));
    const result = await fetchModels({ baseURL: "http://x/v1" }, { fetch: fakeFetch });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/OpenAI shape/);
  });

  it("sends the key to the listed endpoint only when one is given", async () => {
    await fetchModels({ baseURL: server.baseURL, apiKey: KEY });
    await fetchModels({ baseURL: server.baseURL });
    const gets = server.requests.filter((r) => r.path === "/v1/models");
    expect(gets.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, undefined]);
  });
});
