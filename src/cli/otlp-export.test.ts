// The OTLP exporter in process, with a scripted collector: batching, back-off and retries, a
// collector that is down or refuses, close's bound, and the headers option.
import { describe, expect, it } from "vitest";
import { failedRun, twoRoundRun } from "../test-support/engine/otel/otel-records.ts";
import { OTLP_TUNING, OtlpExporter, parseHeaders, readOtlpOptions } from "./otlp-export.ts";
import type { OtlpTarget, OtlpTuning } from "./otlp-export.ts";
import { decodeOtlp } from "../test-support/cli/otlp-proto.ts";

const FAST: OtlpTuning = { ...OTLP_TUNING, baseDelayMs: 1, maxDelayMs: 2, batchDelayMs: 0 };
const TARGET: OtlpTarget = {
  url: "http://127.0.0.1:4318/v1/traces",
  headers: { Authorization: "Basic c2VjcmV0" },
  content: false,
  protocol: "http/json",
  conventions: "current",
};

/** A collector answering each request with the next of `answers` (the last one repeats). */
function collector(answers: (number | "down" | "hang")[]) {
  const bodies: { resourceSpans: { scopeSpans: { spans: { traceId: string }[] }[] }[] }[] = [];
  const headers: Record<string, string>[] = [];
  let n = 0;
  const post = ((_url: string, init: RequestInit) => {
    const answer = answers[Math.min(n++, answers.length - 1)]!;
    headers.push(init.headers as Record<string, string>);
    if (answer === "down")
      return Promise.reject(
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4318"), {
            code: "ECONNREFUSED",
          }),
        }),
      );
    if (answer === "hang")
      return new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    if (answer === 200)
      bodies.push(
        (typeof init.body === "string"
          ? JSON.parse(init.body)
          : decodeOtlp(init.body as Uint8Array, true)) as (typeof bodies)[number],
      );
    return Promise.resolve(
      new Response("{}", { status: answer, statusText: answer === 200 ? "OK" : "Unavailable" }),
    );
  }) as typeof fetch;
  const traces = () =>
    bodies.flatMap((b) => b.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.traceId));
  return { post, bodies, headers, traces, calls: () => n };
}

function exporter(
  answers: (number | "down" | "hang")[],
  tuning: OtlpTuning = FAST,
  target: OtlpTarget = TARGET,
) {
  const c = collector(answers);
  const lines: string[] = [];
  return { c, lines, x: new OtlpExporter(target, (l) => lines.push(l), tuning, c.post) };
}

describe("OtlpExporter", () => {
  it("batches runs added together into one request, sent with the target's headers", async () => {
    const { c, lines, x } = exporter([200]);
    x.add(twoRoundRun("a"));
    x.add(failedRun("b"));
    expect(c.calls()).toBe(0); // add never waits on the network
    await x.close();
    expect(c.bodies).toHaveLength(1);
    expect(new Set(c.traces()).size).toBe(2);
    expect(c.headers[0]).toMatchObject({
      Authorization: "Basic c2VjcmV0",
      "Content-Type": "application/json",
    });
    expect(lines).toEqual([`sent 2 traces (21 spans) to ${TARGET.url}`]);
    expect(x.dropped).toBe(0);
  });

  it("sends protobuf as application/x-protobuf, the same spans as the JSON", async () => {
    const json = exporter([200]);
    const proto = exporter([200], FAST, { ...TARGET, protocol: "http/protobuf" });
    for (const { x } of [json, proto]) {
      x.add(twoRoundRun("a"));
      x.add(failedRun("b"));
      await x.close();
    }
    expect(proto.c.headers[0]!["Content-Type"]).toBe("application/x-protobuf");
    expect(proto.lines).toEqual([`sent 2 traces (21 spans) to ${TARGET.url}`]);
    // Decoded with proto3 defaults filled in: every field of the JSON is there, with its value.
    expect(proto.c.bodies).toMatchObject(json.c.bodies);
  });

  it("says which protocol a collector refused with 415, and the one to try", async () => {
    const { lines, x } = exporter([415], FAST, { ...TARGET, protocol: "http/protobuf" });
    x.add(twoRoundRun());
    await x.close();
    expect(lines[0]).toMatch(/does not take http\/protobuf \(415.*try the protocol http\/json/);
  });

  it("splits a batch past maxSpans into several requests", async () => {
    const { c, x } = exporter([200], { ...FAST, maxSpans: 13 });
    x.add(twoRoundRun("a")); // 13 spans: sent at once
    x.add(twoRoundRun("b"));
    await x.close();
    expect(c.bodies).toHaveLength(2);
  });

  it("retries 503 and a dropped connection with back-off, then delivers once", async () => {
    const { c, lines, x } = exporter([503, "down", 200]);
    x.add(twoRoundRun());
    await x.close();
    expect(c.calls()).toBe(3);
    expect(c.bodies).toHaveLength(1);
    expect(lines).toEqual([`sent 1 trace (13 spans) to ${TARGET.url}`]);
  });

  it("gives up on a collector that stays down, says why, and counts what it dropped", async () => {
    const { c, lines, x } = exporter(["down"]);
    x.add(twoRoundRun());
    await x.close();
    expect(c.calls()).toBe(FAST.maxAttempts);
    expect(x.dropped).toBe(1);
    expect(lines[0]).toMatch(
      /could not send 1 trace \(13 spans\) to .*Cannot reach the collector \(ECONNREFUSED: connect ECONNREFUSED.*the runs are not affected/,
    );
  });

  it("does not retry a refusal (401) and never logs a header value", async () => {
    const { c, lines, x } = exporter([401]);
    x.add(twoRoundRun());
    await x.close();
    expect(c.calls()).toBe(1);
    expect(lines[0]).toMatch(/refused the credentials \(401/);
    expect(lines.join("\n")).not.toContain("c2VjcmV0");
  });

  it("waits at most closeTimeoutMs at close for a collector that never answers", async () => {
    const { lines, x } = exporter(["hang"], { ...FAST, closeTimeoutMs: 20 });
    x.add(twoRoundRun());
    await x.close();
    expect(x.dropped).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(/gave up waiting for .* unsent traces are dropped/),
    ]);
  });
});

describe("readOtlpOptions", () => {
  it("reads the endpoint, headers from the named variable, and the content opt-in", () => {
    const env = { H: "Authorization=Basic%20abc%3D%3D, x-tenant = lab" };
    expect(
      readOtlpOptions(
        { "otlp-endpoint": "http://localhost:4318", "otlp-headers-env": "H", "otlp-content": true },
        env,
      ),
    ).toEqual({
      ok: true,
      target: {
        url: "http://localhost:4318/v1/traces",
        headers: { Authorization: "Basic abc==", "x-tenant": "lab" },
        content: true,
        protocol: "http/protobuf",
        conventions: "current",
      },
    });
    const langfuse = "https://cloud.langfuse.com/api/public/otel/v1/traces";
    expect(readOtlpOptions({ "otlp-endpoint": langfuse }, {})).toMatchObject({
      ok: true,
      target: { url: langfuse },
    });
    expect(readOtlpOptions({}, {})).toEqual({ ok: true, target: null });
    const chosen = { "otlp-protocol": "http/json", "otel-conventions": "legacy" };
    expect(readOtlpOptions({ "otlp-endpoint": "http://x", ...chosen }, {})).toMatchObject({
      target: { protocol: "http/json", conventions: "legacy" },
    });
  });

  it("says what is wrong with a bad URL, credentials in the URL, a bad header list or a flag alone", () => {
    const msg = (v: Parameters<typeof readOtlpOptions>[0], env = {}) => {
      const r = readOtlpOptions(v, env);
      return r.ok ? "" : r.message;
    };
    expect(msg({ "otlp-endpoint": "ftp://x" })).toMatch(/http:\/\/ or https:\/\//);
    expect(msg({ "otlp-endpoint": "https://pk:sk@cloud.langfuse.com" })).toMatch(
      /not in the collector URL/,
    );
    expect(
      msg({ "otlp-endpoint": "http://x", "otlp-headers-env": "H" }, { H: "no equals sign" }),
    ).toMatch(/name=value/);
    expect(msg({ "otlp-content": true })).toMatch(/need --otlp-endpoint/);
    expect(msg({ "otlp-protocol": "http/json" })).toMatch(/need --otlp-endpoint/);
    expect(msg({ "otlp-endpoint": "http://x", "otlp-protocol": "grpc" })).toMatch(
      /--otlp-protocol must be http\/protobuf or http\/json, got "grpc"/,
    );
    expect(msg({ "otel-conventions": "old" })).toMatch(/current or legacy, got "old"/);
    expect(parseHeaders("a=1,,b=x%zz")).toEqual({ a: "1", b: "x%zz" });
  });
});
