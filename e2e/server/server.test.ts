import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChatBody, TestServer } from "./server.ts";
import { startTestServer } from "./server.ts";

const ChunkSchema = z.object({
  object: z.literal("chat.completion.chunk"),
  choices: z.array(
    z.object({
      delta: z.object({ role: z.string().optional(), content: z.string().optional() }),
      finish_reason: z.string().nullable(),
    }),
  ),
  usage: z
    .object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      cost: z.number().optional(),
    })
    .optional(),
});

const CompletionSchema = z.object({
  object: z.literal("chat.completion"),
  choices: z.array(
    z.object({ message: z.object({ content: z.string() }), finish_reason: z.string() }),
  ),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).optional(),
});

const ErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.string() }),
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ keys: { locked: "sk-right" }, models: ["listed-only"] });
});
afterEach(() => server.reset());
afterAll(() => server.close());

function chat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ messages: [{ role: "user", content: "12345678" }], ...body }),
  });
}

/** The `data:` payloads of an SSE body, in order. */
function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));
}

function chunks(text: string) {
  return sseData(text)
    .filter((data) => data !== "[DONE]")
    .map((data) => ChunkSchema.parse(JSON.parse(data)));
}

describe("streaming", () => {
  it("sends a role chunk, content chunks, a finish, usage when asked, then [DONE]", async () => {
    server.script("m", { chunks: ["Hel", "lo", " world"] });
    const res = await chat({ model: "m", stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const text = await res.text();
    expect(sseData(text).at(-1)).toBe("[DONE]");
    const parsed = chunks(text);
    expect(parsed[0]?.choices[0]?.delta.role).toBe("assistant");
    const content = parsed.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(content).toBe("Hello world");
    expect(parsed.filter((c) => c.choices[0]?.delta.content).length).toBe(3);
    expect(parsed.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    // 8 prompt chars -> 2 tokens; 11 content chars -> 3 tokens.
    expect(parsed.at(-1)?.choices).toEqual([]);
    expect(parsed.at(-1)?.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 3 });
  });

  it("splits plain content into word chunks and omits usage unless include_usage", async () => {
    server.script("m", "one two three");
    const parsed = chunks(await (await chat({ model: "m", stream: true })).text());
    const pieces = parsed.map((c) => c.choices[0]?.delta.content).filter(Boolean);
    expect(pieces).toEqual(["one ", "two ", "three"]);
    expect(parsed.some((c) => c.usage)).toBe(false);
  });

  it("sends scripted usage with cost, and none when usage is false", async () => {
    server.script("m", {
      content: "x",
      usage: { prompt_tokens: 7, completion_tokens: 9, cost: 0.25 },
    });
    server.script("m", { content: "y", usage: false });
    const body = { model: "m", stream: true, stream_options: { include_usage: true } };
    const first = chunks(await (await chat(body)).text());
    expect(first.at(-1)?.usage).toMatchObject({
      prompt_tokens: 7,
      completion_tokens: 9,
      cost: 0.25,
    });
    const second = chunks(await (await chat(body)).text());
    expect(second.some((c) => c.usage)).toBe(false);
  });

  it("drops mid-stream after some chunks: the body read fails and no [DONE] arrives", async () => {
    server.script("m", { chunks: ["a", "b", "c", "d"], drop: "mid" });
    const res = await chat({ model: "m", stream: true });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});

describe("non-streaming", () => {
  it("answers a chat.completion object with usage", async () => {
    server.setDefault("m", "Hello there");
    const res = await chat({ model: "m" });
    const parsed = CompletionSchema.parse(await res.json());
    expect(parsed.choices[0]?.message.content).toBe("Hello there");
    expect(parsed.choices[0]?.finish_reason).toBe("stop");
    expect(parsed.usage).toEqual(
      expect.objectContaining({ prompt_tokens: 2, completion_tokens: 3 }),
    );
  });

  it("uses queued replies in order, then the default", async () => {
    server.script("m", "first", "second");
    server.setDefault("m", "fallback");
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const parsed = CompletionSchema.parse(await (await chat({ model: "m" })).json());
      texts.push(parsed.choices[0]?.message.content ?? "");
    }
    expect(texts).toEqual(["first", "second", "fallback"]);
  });

  it("computes function replies from the request and honours match", async () => {
    server.script("m", {
      content: "matched",
      // The parameter needs its type here: Reply's function member blurs contextual typing.
      match: (body: ChatBody) => JSON.stringify(body.messages).includes("special"),
    });
    server.setDefault("m", (body) => `echo ${body.messages.length}`);
    const plain = CompletionSchema.parse(await (await chat({ model: "m" })).json());
    expect(plain.choices[0]?.message.content).toBe("echo 1");
    const special = await chat({ model: "m", messages: [{ role: "user", content: "special" }] });
    expect(CompletionSchema.parse(await special.json()).choices[0]?.message.content).toBe(
      "matched",
    );
  });
});

describe("errors", () => {
  it("404s an unknown model with model_not_found", async () => {
    const res = await chat({ model: "nobody" });
    expect(res.status).toBe(404);
    expect(ErrorSchema.parse(await res.json()).error.code).toBe("model_not_found");
  });

  it("401s a missing or wrong key and accepts the right one", async () => {
    server.setDefault("locked", "secret answer");
    expect((await chat({ model: "locked" })).status).toBe(401);
    const wrong = await chat({ model: "locked" }, { Authorization: "Bearer sk-wrong" });
    expect(wrong.status).toBe(401);
    expect(ErrorSchema.parse(await wrong.json()).error.code).toBe("invalid_api_key");
    const right = await chat({ model: "locked" }, { Authorization: "Bearer sk-right" });
    expect(right.status).toBe(200);
  });

  it("answers 429 with Retry-After, and 500, with OpenAI-style bodies", async () => {
    server.script("m", { status: 429, retryAfter: "2" }, { status: 500, errorMessage: "boom" });
    const limited = await chat({ model: "m", stream: true });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(ErrorSchema.parse(await limited.json()).error.code).toBe("rate_limit_exceeded");
    const broken = await chat({ model: "m" });
    expect(broken.status).toBe(500);
    expect(ErrorSchema.parse(await broken.json()).error).toMatchObject({
      message: "boom",
      type: "server_error",
    });
  });

  it("drops the connection before headers", async () => {
    server.script("m", { drop: "before" });
    await expect(chat({ model: "m" })).rejects.toThrow();
  });

  it("400s a body that is not a chat request", async () => {
    const res = await fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      body: "{nope",
    });
    expect(res.status).toBe(400);
  });
});

describe("models, CORS and recording", () => {
  it("lists scripted, defaulted and configured models", async () => {
    server.script("a", "x");
    server.setDefault("b", "y");
    const res = await fetch(`${server.baseURL}/models`);
    const list = z.object({ data: z.array(z.object({ id: z.string() })) }).parse(await res.json());
    expect(list.data.map((m) => m.id).sort()).toEqual(["a", "b", "listed-only"]);
  });

  it("sends CORS headers and answers preflights by default", async () => {
    const pre = await fetch(`${server.baseURL}/chat/completions`, {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Headers": "authorization,content-type,x-stainless-os" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
    const res = await fetch(`${server.baseURL}/models`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("sends no CORS headers at all when cors is false", async () => {
    const closed = await startTestServer({ cors: false });
    try {
      closed.setDefault("m", "x");
      const pre = await fetch(`${closed.baseURL}/chat/completions`, { method: "OPTIONS" });
      expect([...pre.headers.keys()].filter((h) => h.startsWith("access-control"))).toEqual([]);
      const res = await fetch(`${closed.baseURL}/models`);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await closed.close();
    }
  });

  it("records method, path, headers and parsed body", async () => {
    server.setDefault("m", "x");
    await (await chat({ model: "m", temperature: 0.3 }, { Authorization: "Bearer k1" })).text();
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(req?.headers.authorization).toBe("Bearer k1");
    expect(req?.body).toMatchObject({ model: "m", temperature: 0.3 });
    expect(typeof req?.time).toBe("number");
  });

  it("waits the scripted latency before answering", async () => {
    server.script("m", { content: "slow", latencyMs: 40 });
    const started = performance.now();
    await (await chat({ model: "m" })).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });
});

describe("provider quirks", () => {
  it("replays a fixture's frames as is, without its notes", async () => {
    server.script("m", { fixture: "event-error-429.sse" });
    const text = await (await chat({ model: "m", stream: true })).text();
    expect(text.startsWith("data: ")).toBe(true);
    expect(text).not.toContain("# ");
    expect(text).toContain('event: error\ndata: {"message":"Rate limit exceeded');
  });

  it("refuses a fixture name that is a path", async () => {
    server.script("m", { fixture: "../server.ts" });
    expect((await chat({ model: "m", stream: true })).status).toBe(500);
  });

  it("streams scripted reasoning in the chosen field before the content", async () => {
    server.script("m", { reasoning: ["a", "b"], reasoningField: "reasoning", content: "ok" });
    const deltas = sseData(await (await chat({ model: "m", stream: true })).text())
      .filter((d) => d !== "[DONE]")
      .map((d) => (JSON.parse(d) as { choices: { delta?: unknown }[] }).choices[0]?.delta);
    expect(deltas.slice(1, 4)).toEqual([{ reasoning: "a" }, { reasoning: "b" }, { content: "ok" }]);
  });

  it("records a client that leaves before the answer, but not a scripted drop", async () => {
    server.script("m", { content: "late", latencyMs: 2_000 });
    const controller = new AbortController();
    const pending = fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [] }),
      signal: controller.signal,
    }).catch(() => "aborted");
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort();
    expect(await pending).toBe("aborted");
    await expect
      .poll(() => server.disconnects)
      .toEqual([expect.objectContaining({ model: "m", phase: "waiting" })]);
    server.script("m", { drop: "before" });
    await chat({ model: "m" }).catch(() => undefined);
    expect(server.disconnects).toHaveLength(1);
  });
});

describe("gates: a reply held until the test releases it", () => {
  it("holds a reply before its first byte until release, then answers it", async () => {
    const gate = server.gate("judge");
    server.script("m", { content: "held answer", gate: "judge" });
    let answered = false;
    const pending = chat({ model: "m" }).then(async (r) => {
      answered = true;
      return CompletionSchema.parse(await r.json());
    });
    await gate.reached();
    expect(gate.held).toBe(1);
    // However long the test looks, nothing comes back while the gate is shut.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    gate.release();
    expect((await pending).choices[0]?.message.content).toBe("held answer");
    expect(gate.held).toBe(0);
    // Once released, it holds nothing more.
    server.script("m", { content: "free", gate: "judge" });
    expect((await chat({ model: "m" })).status).toBe(200);
  });

  it("holds a stream after the chunks it names: the client has read them, not the rest", async () => {
    const gate = server.gate("mid");
    server.script("m", { chunks: ["one ", "two ", "three"], gate: "mid", gateAfter: 2 });
    const res = await chat({ model: "m", stream: true });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"two "')) seen += decoder.decode((await reader.read()).value);
    await gate.reached();
    expect(seen).not.toContain("three");
    gate.release();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += decoder.decode(value);
    }
    expect(
      chunks(seen)
        .map((c) => c.choices[0]?.delta.content ?? "")
        .join(""),
    ).toBe("one two three");
  });

  it("refuses a reply naming a gate the test never made, and a reset releases held replies", async () => {
    server.script("m", { content: "x", gate: "nobody" });
    expect((await chat({ model: "m" })).status).toBe(500);
    server.gate("g");
    server.script("m", { content: "freed", gate: "g" });
    const pending = chat({ model: "m" });
    await server.gate("g").reached();
    server.reset();
    expect((await pending).status).toBe(200);
  });

  it("never holds a client that left during the scripted latency, and counts open calls", async () => {
    const gate = server.gate("gone");
    server.script("m", { content: "x", latencyMs: 60_000, gate: "gone" });
    const controller = new AbortController();
    const pending = fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      signal: controller.signal,
    }).catch(() => "aborted");
    await expect.poll(() => server.openChats).toBe(1);
    controller.abort();
    expect(await pending).toBe("aborted");
    await expect.poll(() => server.openChats).toBe(0);
    // Its "close" came before the gate: holding it would wait for an event that never comes.
    expect(gate.held).toBe(0);
    server.script("m", { content: "y" });
    expect((await chat({ model: "m" })).status).toBe(200);
    expect(server.openChats).toBe(0);
  });

  it("counts arrivals, so a test can wait for the n-th held call", async () => {
    const gate = server.gate("n");
    server.setDefault("m", { content: "x", gate: "n" });
    const calls = [chat({ model: "m" }), chat({ model: "m" })];
    await gate.reached(2);
    expect(gate.held).toBe(2);
    gate.release();
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([200, 200]);
  });
});
