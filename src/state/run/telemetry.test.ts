import { describe, expect, it } from "vitest";
import { twoRoundRun } from "../../test-support/engine/otel/otel-records.ts";
import { loadSettings, SETTINGS_KEY, settingsToStore } from "../storage/persist.ts";
import { DEFAULT_TELEMETRY } from "../slices/settings.ts";
import { useStudio } from "../slices/store.ts";
import { decodeOtlp } from "../../test-support/cli/otlp-proto.ts";
import { sendTraces, traceText } from "./telemetry.ts";

const settings = { ...DEFAULT_TELEMETRY, collectorURL: "http://127.0.0.1:6006" };

function storage(text: string | null): Pick<Storage, "getItem"> {
  return { getItem: (k) => (k === SETTINGS_KEY ? text : null) };
}

describe("sendTraces", () => {
  it("posts OTLP protobuf by default, the same spans as the JSON export, as Phoenix takes it", async () => {
    const bodies: unknown[] = [];
    const types: unknown[] = [];
    const post = ((_url: string, init: RequestInit) => {
      types.push((init.headers as Record<string, string>)["Content-Type"]);
      bodies.push(init.body);
      return Promise.resolve(new Response("{}", { status: 200 }));
    }) as typeof fetch;
    expect((await sendTraces([twoRoundRun()], settings, post)).ok).toBe(true);
    expect(types).toEqual(["application/x-protobuf"]);
    expect(bodies[0]).toBeInstanceOf(Uint8Array);
    const json: unknown = JSON.parse(traceText([twoRoundRun()], settings));
    expect(decodeOtlp(bodies[0] as Uint8Array, true)).toMatchObject(json as object);
  });

  it("posts OTLP JSON when chosen, to the traces path with the Authorization header", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const post = ((url: string, init: RequestInit) => {
      seen.push({ url, init });
      return Promise.resolve(new Response("{}", { status: 200 }));
    }) as typeof fetch;
    const r = await sendTraces(
      [twoRoundRun()],
      { ...settings, protocol: "http/json", authorization: " Basic abc " },
      post,
    );
    expect(r).toEqual({
      ok: true,
      message: "Sent 1 trace (13 spans) to http://127.0.0.1:6006/v1/traces.",
    });
    expect(seen[0]!.url).toBe("http://127.0.0.1:6006/v1/traces");
    expect(seen[0]!.init.headers).toEqual({
      "Content-Type": "application/json",
      Authorization: "Basic abc",
    });
  });

  it("explains a blocked or unreachable collector as CORS, with Phoenix's setting", async () => {
    const post = (() => Promise.reject(new TypeError("Failed to fetch"))) as typeof fetch;
    const r = await sendTraces([twoRoundRun()], settings, post);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/does not allow requests from .*\(CORS\).*PHOENIX_ALLOWED_ORIGINS=/);
  });

  it("says what a refusal means, and refuses a URL that is not one before sending", async () => {
    const post = (() =>
      Promise.resolve(
        new Response("", { status: 401, statusText: "Unauthorized" }),
      )) as typeof fetch;
    expect((await sendTraces([twoRoundRun()], settings, post)).message).toMatch(
      /refused the credentials \(401 Unauthorized\)/,
    );
    const never = (() => {
      throw new Error("must not be called");
    }) as typeof fetch;
    expect(
      await sendTraces([twoRoundRun()], { ...settings, collectorURL: "phoenix:6006" }, never),
    ).toMatchObject({ ok: false });
  });
});

describe("stored tracing settings", () => {
  it("reads old settings without them as the defaults, and never stores the Authorization value", () => {
    const old = JSON.stringify({ pool: [], conductor: {}, maxSteps: 5 });
    expect(loadSettings(storage(old)).telemetry).toBeUndefined();
    useStudio.getState().setTelemetry({
      collectorURL: "http://x/v1/traces",
      content: true,
      authorization: "Basic s3cr3t",
      protocol: "http/json",
      conventions: "legacy",
    });
    const text = settingsToStore(useStudio.getState());
    expect(text).not.toContain("s3cr3t");
    expect(loadSettings(storage(text)).telemetry).toEqual({
      collectorURL: "http://x/v1/traces",
      content: true,
      authorization: "",
      protocol: "http/json",
      conventions: "legacy",
    });
    // Stored before the protocol and conventions existed: read as the defaults, nothing dropped.
    const before = JSON.stringify({ telemetry: { collectorURL: "http://x", content: false } });
    expect(loadSettings(storage(before)).telemetry).toMatchObject({
      protocol: "http/protobuf",
      conventions: "current",
    });
    const broken = JSON.stringify({ pool: [], conductor: {}, telemetry: { collectorURL: 7 } });
    expect(loadSettings(storage(broken)).pool).toEqual([]);
    useStudio.getState().setTelemetry(DEFAULT_TELEMETRY);
  });
});
