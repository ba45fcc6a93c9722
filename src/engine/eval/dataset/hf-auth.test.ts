// The Hugging Face token goes to the Hub's origins and nowhere else, against real local servers.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hubFetch } from "./hf-auth.ts";

const TOKEN = "hf_canary_token_1234";

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

function listen(handler: (path: string) => { status: number; location?: string }) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    const r = handler(req.url ?? "");
    res.writeHead(r.status, r.location ? { location: r.location } : {});
    res.end("{}");
  });
  return { server, seen };
}

const base = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

describe("the Hugging Face token", () => {
  const other = listen(() => ({ status: 200 }));
  let hubBase = "";
  const hub = listen((path) =>
    path.startsWith("/away")
      ? { status: 302, location: `${base(other.server)}/stolen` }
      : { status: 200 },
  );
  beforeAll(async () => {
    await Promise.all(
      [hub.server, other.server].map(
        (s) => new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok)),
      ),
    );
    hubBase = base(hub.server);
  });
  afterAll(() => {
    hub.server.close();
    other.server.close();
  });

  it("goes to the Hub's origin and to no other", async () => {
    const f = hubFetch(fetch, TOKEN, [`${hubBase}/api`]);
    await f(`${hubBase}/rows?dataset=x`);
    await f(`${base(other.server)}/elsewhere`);
    expect(hub.seen.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(other.seen.map((s) => s.headers.authorization)).toEqual([undefined]);
  });

  it("is never carried through a redirect, even one the Hub's origin answers", async () => {
    const f = hubFetch(fetch, TOKEN, [hubBase]);
    await expect(f(`${hubBase}/away`)).rejects.toThrow();
    expect(other.seen.some((s) => s.url === "/stolen")).toBe(false);
  });

  it("is not sent at all when empty", async () => {
    const f = hubFetch(fetch, "  ", [hubBase]);
    await f(`${hubBase}/rows`);
    expect(hub.seen.at(-1)?.headers.authorization).toBeUndefined();
  });
});
