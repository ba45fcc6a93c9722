/**
 * The OTLP request (otlp.ts) as protobuf bytes, the body for `Content-Type: application/x-protobuf`
 * that OTLP/HTTP defaults to and Phoenix alone accepts. Field numbers and wire types are those of
 * the official opentelemetry-proto v1.11.0 definitions (vendor/opentelemetry-proto); the writing is
 * protobufjs's own Writer, which needs no runtime code generation (the studio's CSP forbids eval).
 * otlp-protobuf.test.ts decodes the bytes with those .proto files and checks them against the JSON
 * export and against OpenTelemetry JS's own serializer.
 *
 * Built from the same plain request as the JSON, so both say the same thing: a cost of $0 stays a
 * double, ids are the hex ids as bytes, times the decimal nanoseconds as fixed64.
 */
import protobuf from "protobufjs/minimal.js";
import type { OtlpAnyValue, OtlpKeyValue, OtlpSpan, OtlpTraceRequest } from "./otlp.ts";

type Writer = protobuf.Writer;

/** Wire types. */
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

const tag = (w: Writer, field: number, wire: number) => w.uint32(((field << 3) | wire) >>> 0);

/** A decimal 64-bit integer as the Writer's low/high words, exact where a double would round. */
function long(decimal: string): protobuf.Long {
  const n = BigInt.asUintN(64, BigInt(decimal));
  return { low: Number(n & 0xffffffffn) | 0, high: Number(n >> 32n) | 0, unsigned: true };
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** A nested message: its fields written by `body`, then length-prefixed under `field`. */
function message(w: Writer, field: number, body: () => void): void {
  tag(w, field, LEN);
  w.fork();
  body();
  w.ldelim();
}

function str(w: Writer, field: number, value: string | undefined): void {
  // proto3: an empty string is the default and is not written.
  if (!value) return;
  tag(w, field, LEN);
  w.string(value);
}

function uint(w: Writer, field: number, value: number): void {
  if (!value) return;
  tag(w, field, VARINT);
  w.uint32(value);
}

/** AnyValue is a oneof: its one field is written even when it holds the default. */
function anyValue(w: Writer, v: OtlpAnyValue): void {
  if ("stringValue" in v) {
    tag(w, 1, LEN);
    w.string(v.stringValue);
  } else if ("boolValue" in v) {
    tag(w, 2, VARINT);
    w.bool(v.boolValue);
  } else if ("intValue" in v) {
    tag(w, 3, VARINT);
    w.int64(long(v.intValue));
  } else if ("doubleValue" in v) {
    tag(w, 4, I64);
    w.double(v.doubleValue);
  } else {
    message(w, 5, () => {
      for (const item of v.arrayValue.values) message(w, 1, () => anyValue(w, item));
    });
  }
}

function keyValues(w: Writer, field: number, list: readonly OtlpKeyValue[]): void {
  for (const kv of list)
    message(w, field, () => {
      str(w, 1, kv.key);
      message(w, 2, () => anyValue(w, kv.value));
    });
}

function fixed64(w: Writer, field: number, decimal: string): void {
  if (decimal === "0") return;
  tag(w, field, I64);
  w.fixed64(long(decimal));
}

function fixed32(w: Writer, field: number, value: number): void {
  if (!value) return;
  tag(w, field, I32);
  w.fixed32(value);
}

function bytes(w: Writer, field: number, hex: string | undefined): void {
  if (!hex) return;
  tag(w, field, LEN);
  w.bytes(hexBytes(hex));
}

/** trace.proto's Span (fields 1-16; 3, trace_state, is never set). */
function span(w: Writer, s: OtlpSpan): void {
  bytes(w, 1, s.traceId);
  bytes(w, 2, s.spanId);
  bytes(w, 4, s.parentSpanId);
  str(w, 5, s.name);
  uint(w, 6, s.kind);
  fixed64(w, 7, s.startTimeUnixNano);
  fixed64(w, 8, s.endTimeUnixNano);
  keyValues(w, 9, s.attributes);
  uint(w, 10, s.droppedAttributesCount);
  for (const e of s.events)
    message(w, 11, () => {
      fixed64(w, 1, e.timeUnixNano);
      str(w, 2, e.name);
      keyValues(w, 3, e.attributes);
      uint(w, 4, e.droppedAttributesCount);
    });
  uint(w, 12, s.droppedEventsCount);
  for (const l of s.links)
    message(w, 13, () => {
      bytes(w, 1, l.traceId);
      bytes(w, 2, l.spanId);
      keyValues(w, 4, l.attributes);
      uint(w, 5, l.droppedAttributesCount);
      fixed32(w, 6, l.flags);
    });
  uint(w, 14, s.droppedLinksCount);
  message(w, 15, () => {
    str(w, 2, s.status.message);
    uint(w, 3, s.status.code);
  });
  fixed32(w, 16, s.flags);
}

/** The request as an encoded `ExportTraceServiceRequest`. */
export function otlpProtobuf(request: OtlpTraceRequest): Uint8Array<ArrayBuffer> {
  const w = protobuf.Writer.create();
  for (const rs of request.resourceSpans)
    message(w, 1, () => {
      message(w, 1, () => {
        keyValues(w, 1, rs.resource.attributes);
        uint(w, 2, rs.resource.droppedAttributesCount);
      });
      for (const ss of rs.scopeSpans)
        message(w, 2, () => {
          message(w, 1, () => {
            str(w, 1, ss.scope.name);
            str(w, 2, ss.scope.version);
            keyValues(w, 3, ss.scope.attributes);
            uint(w, 4, ss.scope.droppedAttributesCount);
          });
          for (const s of ss.spans) message(w, 2, () => span(w, s));
        });
    });
  // A copy of its own: under Node the Writer's bytes may be a view into a shared pool.
  return new Uint8Array(w.finish());
}
