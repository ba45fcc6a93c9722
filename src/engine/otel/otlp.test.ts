// The OTLP JSON checked against the real format: the official protobuf definitions
// (opentelemetry-proto v1.11.0, vendor/opentelemetry-proto, Apache-2.0) read through protobufjs, and
// OpenTelemetry JS's own protobuf encoder (@opentelemetry/otlp-transformer) for the same spans.
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { describe, expect, it } from "vitest";
import { decodeOtlp, encodeOtlpJson } from "../../test-support/cli/otlp-proto.ts";
import { failedRun, twoRoundRun } from "../../test-support/engine/otel/otel-records.ts";
import { traceOf } from "./map.ts";
import { otlpProtobuf } from "./otlp-protobuf.ts";
import { CONVENTIONS_KEY, otlpJson, otlpRequest } from "./otlp.ts";
import type { AttrValue, OtelTrace } from "./span.ts";
import { CONVENTIONS_VERSION } from "./span.ts";

/** The SDK's span type, as the official serializer takes it (no import of the SDK itself). */
type ReadableSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];

/** Our JSON read into the protobuf message (unknown field names would be dropped) and encoded. */
const encodeOurs = (json: string) => encodeOtlpJson(json);
const decode = (bytes: Uint8Array, defaults: boolean) => decodeOtlp(bytes, defaults);

const traces = (): OtelTrace[] => [
  traceOf(twoRoundRun(), { content: true }),
  traceOf(failedRun()),
  traceOf({ ...twoRoundRun("child-run"), parentId: "run-two-rounds", kind: "rerun" }),
];

describe("OTLP JSON against the official protobuf definitions", () => {
  it("round-trips through the protobuf message with nothing lost, renamed or retyped", () => {
    const json = otlpJson(traces());
    const ours: unknown = JSON.parse(json);
    const bytes = encodeOurs(json);
    // Every field we send survives the trip (so each name and type is the proto's) ...
    expect(decode(bytes, true)).toMatchObject(ours as object);
    // ... and the wire holds nothing we did not send.
    expect(ours).toMatchObject(decode(bytes, false) as object);
  });

  it("keeps a cost of $0 a double on the wire, and ids of the right length", () => {
    const bytes = encodeOurs(otlpJson([traceOf(failedRun())]));
    const message = JSON.stringify(decode(bytes, false));
    expect(message).toContain('"key":"llm.cost.total","value":{"doubleValue":0}');
    const spans = otlpRequest([traceOf(failedRun())]).resourceSpans[0]!.scopeSpans[0]!.spans;
    for (const s of spans) {
      expect(Buffer.from(s.traceId, "hex")).toHaveLength(16);
      expect(Buffer.from(s.spanId, "hex")).toHaveLength(8);
    }
  });
});

/** The attribute values the official SDK takes (it has no int/double distinction of its own). */
function sdkValue(v: AttrValue): string | number | boolean | (string | number)[] {
  if (Array.isArray(v)) return [...(v as readonly (string | number)[])];
  if (typeof v === "object") return (v as { double: number }).double;
  return v;
}

/** The same spans as OpenTelemetry JS's SDK would hand its exporter. */
function sdkSpans(list: OtelTrace[]): ReadableSpan[] {
  // The SDK groups spans by resource and scope object identity: one of each, as a tracer has.
  const resource = {
    attributes: { "service.name": "conductor-studio", "service.version": "0.1.0" },
  };
  const instrumentationScope = {
    name: "conductor-studio",
    version: "0.1.0",
    attributes: { [CONVENTIONS_KEY]: CONVENTIONS_VERSION[list[0]!.conventions] },
  };
  const hr = (ms: number): [number, number] => [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
  const attrs = (a: Record<string, AttrValue>) =>
    Object.fromEntries(
      Object.keys(a)
        .sort()
        .map((k) => [k, sdkValue(a[k]!)]),
    );
  return list.flatMap((t) =>
    t.spans.map((s) => {
      const span = {
        name: s.name,
        kind: s.kind === "client" ? 2 : 0,
        spanContext: () => ({ traceId: t.traceId, spanId: s.spanId, traceFlags: 1 }),
        parentSpanContext: s.parentSpanId
          ? { traceId: t.traceId, spanId: s.parentSpanId, traceFlags: 1 }
          : undefined,
        startTime: hr(s.startMs),
        endTime: hr(s.endMs),
        status:
          s.status.code === "error"
            ? { code: 2, message: s.status.message }
            : { code: s.status.code === "ok" ? 1 : 0 },
        attributes: attrs(s.attributes),
        links: s.links.map((l) => ({
          context: { traceId: l.traceId, spanId: l.spanId, traceFlags: 1 },
          attributes: attrs(l.attributes),
        })),
        events: [],
        duration: hr(s.endMs - s.startMs),
        ended: true,
        resource,
        instrumentationScope,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
      };
      return span as unknown as ReadableSpan;
    }),
  );
}

describe("OTLP JSON against OpenTelemetry JS's own encoder", () => {
  it("says on the wire exactly what the official exporter says for the same spans", () => {
    // Costs here are all non-zero: the SDK cannot tell a double 0 from an int 0 (see above).
    const list = [traceOf(twoRoundRun(), { content: true })];
    const official = ProtobufTraceSerializer.serializeRequest(sdkSpans(list));
    if (!official) throw new Error("the official serializer gave nothing");
    expect(decode(official, false)).toEqual(decode(encodeOurs(otlpJson(list)), false));
  });
});

describe("OTLP protobuf (the export's own encoder)", () => {
  it("decodes, with the official definitions, to exactly the JSON export's request", () => {
    const list = traces();
    const bytes = otlpProtobuf(otlpRequest(list));
    const json: unknown = JSON.parse(otlpJson(list));
    // Nothing missing, renamed or retyped (a $0 cost stays a double, 64-bit times exact) ...
    expect(decode(bytes, true)).toMatchObject(json as object);
    // ... nothing extra, and the same bytes as the reflection encoder gives for the JSON.
    expect(json).toMatchObject(decode(bytes, false) as object);
    expect(decode(bytes, false)).toEqual(decode(encodeOurs(otlpJson(list)), false));
    expect(JSON.stringify(decode(bytes, false))).toContain(
      '"key":"llm.cost.total","value":{"doubleValue":0}',
    );
  });

  it("says what OpenTelemetry JS's own serializer says for the same spans, in either conventions", () => {
    for (const conventions of ["current", "legacy"] as const) {
      const list = [traceOf(twoRoundRun(), { content: true, conventions })];
      const official = ProtobufTraceSerializer.serializeRequest(sdkSpans(list));
      if (!official) throw new Error("the official serializer gave nothing");
      expect(decode(otlpProtobuf(otlpRequest(list)), false)).toEqual(decode(official, false));
    }
  });
});
