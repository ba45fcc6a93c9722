// What the CLI's node:http fetch does beyond the chat calls that src/engine/llm/openai*.test.ts
// run through it: the answers fetch itself would give for redirects, compressed and empty bodies.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFetch } from "./fetch.ts";

let base = "";
const seen: { method: string; url: string; body: string; headers: Record<string, unknown> }[] = [];
const server = createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (d: string) => (body += d));
  req.on("end", () => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", body, headers: req.headers });
    if (req.url === "/moved") {
      res.writeHead(307, { location: "/echo" }).end();
    } else if (req.url === "/gzip") {
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("squeezed"));
    } else if (req.url === "/empty") {
      res.writeHead(204).end();
    } else {
      res
        .writeHead(201, { "x-one": "1", "set-cookie": ["a=1", "b=2"] })
        .end(`${req.method} ${body}`);
    }
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the CLI's node:http fetch", () => {
  it("sends the method, headers and body, and answers status, headers and text", async () => {
    const res = await nodeFetch(`${base}/echo`, {
      method: "post",
      headers: { "Content-Type": "application/json", "X-Custom": "yes" },
      body: '{"a":"é"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-one")).toBe("1");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await res.text()).toBe('POST {"a":"é"}');
    const sent = seen.at(-1)!;
    expect(sent.headers["x-custom"]).toBe("yes");
    expect(sent.headers["content-length"]).toBe(String(Buffer.byteLength('{"a":"é"}')));
  });

  it("follows a redirect as fetch does, the body sent again", async () => {
    const res = await nodeFetch(`${base}/moved`, { method: "POST", body: "again" });
    expect(await res.text()).toBe("POST again");
    expect(seen.slice(-2).map((s) => s.url)).toEqual(["/moved", "/echo"]);
  });

  it("decompresses a gzip body and gives a 204 no body", async () => {
    expect(await (await nodeFetch(`${base}/gzip`)).text()).toBe("squeezed");
    const empty = await nodeFetch(`${base}/empty`, { method: "POST", body: "" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("fails like fetch: an unreachable port is 'fetch failed' with the reason as its cause", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error: unknown = await nodeFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe("fetch failed");
    expect(String((error as TypeError).cause)).toContain("ECONNREFUSED");
  });

  it("rejects at once for a signal already aborted, and hands other bodies to fetch", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(nodeFetch(`${base}/echo`, { signal: controller.signal })).rejects.toThrow("stop");
    const res = await nodeFetch(`${base}/echo`, {
      method: "POST",
      body: new TextEncoder().encode("bytes"),
    });
    expect(await res.text()).toBe("POST bytes");
  });
});
