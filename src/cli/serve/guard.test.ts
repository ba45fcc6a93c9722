// The guard's rules as a table: which Host, Origin and Content-Type a local service answers, for a
// loopback bind and for one off loopback (where a key is mandatory).
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import type { GuardSettings } from "./guard.ts";
import { guardRequest, hostName } from "./guard.ts";

const loopback: GuardSettings = { bind: "127.0.0.1", allowedHosts: [], cors: [] };
const req = (headers: Record<string, string>, method = "GET") =>
  ({
    method,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  }) as IncomingMessage;
const code = (g: GuardSettings, headers: Record<string, string>, method?: string) =>
  guardRequest(req(headers, method), g)?.code ?? "ok";

describe("the local services' guard", () => {
  it("reads a Host's name without port, brackets or trailing dot", () => {
    expect(hostName("LocalHost:8080")).toBe("localhost");
    expect(hostName("[::1]:8080")).toBe("::1");
    expect(hostName("example.com.")).toBe("example.com");
    expect(hostName("127.0.0.1")).toBe("127.0.0.1");
  });

  it.for<[string, GuardSettings, string | undefined, string]>([
    ["loopback name, any port", loopback, "localhost:9000", "ok"],
    ["127.0.0.1", loopback, "127.0.0.1:8080", "ok"],
    ["[::1]", loopback, "[::1]:8080", "ok"],
    ["a rebinding name", loopback, "evil.example:8080", "host_not_allowed"],
    ["no Host at all", loopback, undefined, "host_not_allowed"],
    [
      "a name --allowed-host adds",
      { ...loopback, allowedHosts: ["conductor.lan"] },
      "conductor.lan:80",
      "ok",
    ],
    [
      "off loopback without --allowed-host: any",
      { ...loopback, bind: "0.0.0.0" },
      "10.0.0.5:8080",
      "ok",
    ],
    [
      "off loopback, narrowed",
      { bind: "0.0.0.0", allowedHosts: ["api.example"], cors: [] },
      "10.0.0.5:8080",
      "host_not_allowed",
    ],
    [
      "off loopback, the bind address",
      { bind: "10.0.0.5", allowedHosts: ["api.example"], cors: [] },
      "10.0.0.5:8080",
      "ok",
    ],
  ])("Host: %s", ([, g, host, want]) => {
    expect(code(g, host === undefined ? {} : { Host: host })).toBe(want);
  });

  it.for<[string, string[], Record<string, string>, string]>([
    ["no Origin (curl, SDKs)", [], {}, "ok"],
    [
      "an Origin --cors lists",
      ["http://localhost:5173"],
      { Origin: "http://localhost:5173" },
      "ok",
    ],
    [
      "another Origin",
      ["http://localhost:5173"],
      { Origin: "http://evil.example" },
      "origin_not_allowed",
    ],
    ["Origin null (a sandboxed frame)", [], { Origin: "null" }, "origin_not_allowed"],
    ["any Origin with *", ["*"], { Origin: "http://evil.example" }, "ok"],
    ["cross-site without Origin", [], { "Sec-Fetch-Site": "cross-site" }, "origin_not_allowed"],
    ["same-origin fetch metadata", [], { "Sec-Fetch-Site": "none" }, "ok"],
  ])("Origin: %s", ([, cors, headers, want]) => {
    expect(code({ ...loopback, cors }, { Host: "localhost:1", ...headers })).toBe(want);
  });

  it.for<[string | undefined, string]>([
    ["application/json", "ok"],
    ["Application/JSON; charset=utf-8", "ok"],
    ["text/plain;charset=UTF-8", "unsupported_media_type"],
    ["application/x-www-form-urlencoded", "unsupported_media_type"],
    ["multipart/form-data; boundary=x", "unsupported_media_type"],
    [undefined, "unsupported_media_type"],
  ])("POST with Content-Type %s", ([type, want]) => {
    const headers = { Host: "localhost:1", ...(type ? { "Content-Type": type } : {}) };
    expect(code(loopback, headers, "POST")).toBe(want);
    expect(code(loopback, headers, "GET")).toBe("ok");
  });
});
