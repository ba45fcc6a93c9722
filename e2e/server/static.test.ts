import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "./server.ts";
import { startTestServer } from "./server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => server.reset());
afterAll(() => server.close());

const ORIGIN = { Origin: "http://127.0.0.1:4273" };

describe("static files", () => {
  it("serves bytes with their length, a type from the name and CORS headers", async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251]);
    server.serveFile("/models/m/resolve/main/params_shard_0.bin", bytes);
    server.serveFile("models/m/resolve/main/mlc-chat-config.json", '{"a":1}');

    const shard = await fetch(`${server.url}/models/m/resolve/main/params_shard_0.bin`, {
      headers: ORIGIN,
    });
    expect(shard.status).toBe(200);
    expect(shard.headers.get("content-type")).toBe("application/octet-stream");
    expect(shard.headers.get("content-length")).toBe("5");
    expect(shard.headers.get("access-control-allow-origin")).toBe("*");
    expect(new Uint8Array(await shard.arrayBuffer())).toEqual(bytes);

    const config = await fetch(`${server.url}/models/m/resolve/main/mlc-chat-config.json`);
    expect(config.headers.get("content-type")).toBe("application/json");
    expect(await config.json()).toEqual({ a: 1 });
  });

  it("answers HEAD without a body, and records each request", async () => {
    server.serveFile("/lib/x.wasm", { body: "not wasm" });
    const head = await fetch(`${server.url}/lib/x.wasm`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/wasm");
    expect(head.headers.get("content-length")).toBe("8");
    expect(await head.text()).toBe("");
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["HEAD /lib/x.wasm"]);
  });

  it("applies a scripted latency and error status", async () => {
    server.serveFile("/slow.json", { body: "{}", latencyMs: 120 });
    server.serveFile("/gone.wasm", { body: "", status: 404 });
    const started = Date.now();
    expect((await fetch(`${server.url}/slow.json`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    const gone = await fetch(`${server.url}/gone.wasm`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("forgets served files on reset, and 404s unknown paths", async () => {
    server.serveFile("/a.json", "{}");
    server.reset();
    const res = await fetch(`${server.url}/a.json`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { message: "No route for GET /a.json." } });
  });

  it("does not serve a file to POST", async () => {
    server.serveFile("/a.json", "{}");
    const res = await fetch(`${server.url}/a.json`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
  });
});
