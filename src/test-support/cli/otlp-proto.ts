// Test support: OTLP protobuf read with the official definitions (opentelemetry-proto v1.11.0,
// vendor/opentelemetry-proto) through protobufjs's reflection, as a collector reads it. Decoded into
// the OTLP JSON shape (ids hex, 64-bit numbers as decimal strings, enums as numbers), so protobuf
// and JSON bodies can be compared field for field. Not a test file itself; Node only.
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import protobuf from "protobufjs";

const PROTO_DIR = fileURLToPath(new URL("../../../vendor/opentelemetry-proto", import.meta.url));
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
root.loadSync("opentelemetry/proto/collector/trace/v1/trace_service.proto");
const Request = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");

const ID_KEYS = new Set(["traceId", "spanId", "parentSpanId"]);

/** Maps every id field of a decoded or to-be-encoded object through `f` (hex <-> bytes). */
function mapIds(value: unknown, f: (v: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapIds(v, f));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, ID_KEYS.has(k) ? f(v) : mapIds(v, f)]),
  );
}
const toBytes = (v: unknown) => Buffer.from(String(v), "hex");
const toHex = (v: unknown) => Buffer.from(String(v), "base64").toString("hex");

/**
 * Decodes an `ExportTraceServiceRequest` into the JSON shape; `defaults` fills in the fields the
 * wire left out (proto3 defaults). Throws on bytes that are not such a message.
 */
export function decodeOtlp(bytes: Uint8Array, defaults = false): unknown {
  const object = Request.toObject(Request.decode(bytes), {
    longs: String,
    enums: Number,
    bytes: String,
    defaults,
    oneofs: false,
  });
  return mapIds(object, toHex);
}

/** OTLP JSON read into the protobuf message by reflection (unknown names dropped) and encoded. */
export function encodeOtlpJson(json: string): Uint8Array {
  const message = Request.fromObject(mapIds(JSON.parse(json), toBytes) as Record<string, unknown>);
  const problem = Request.verify(message);
  if (problem) throw new Error(problem);
  return Request.encode(message).finish();
}
