/**
 * Traces as an OTLP `ExportTraceServiceRequest`: the plain request (`otlpRequest`), which
 * otlp-protobuf.ts encodes for `application/x-protobuf`, and its OTLP/HTTP JSON text
 * (`otlpJson`, for `application/json` and files). The JSON follows the OTLP spec's
 * deviations from the protobuf JSON mapping: trace and span ids as hex strings, enums as
 * integers, 64-bit times as decimal strings. otlp.test.ts checks it against the official encoder.
 */
import type { AttrValue, Attributes, OtelSpan, OtelTrace, SpanStatus } from "./span.ts";
import { CONVENTIONS_VERSION } from "./span.ts";

/** The instrumentation scope and service the spans are reported under. */
export const SCOPE_NAME = "conductor-studio";
export const SERVICE_NAME = "conductor-studio";

export type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: OtlpAnyValue[] } };
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  droppedAttributesCount: number;
  events: {
    timeUnixNano: string;
    name: string;
    attributes: OtlpKeyValue[];
    droppedAttributesCount: number;
  }[];
  droppedEventsCount: number;
  links: {
    traceId: string;
    spanId: string;
    attributes: OtlpKeyValue[];
    droppedAttributesCount: number;
    flags: number;
  }[];
  droppedLinksCount: number;
  status: { code: number; message?: string };
  flags: number;
}
export interface OtlpTraceRequest {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[]; droppedAttributesCount: number };
    scopeSpans: {
      scope: {
        name: string;
        version: string;
        attributes: OtlpKeyValue[];
        droppedAttributesCount: number;
      };
      spans: OtlpSpan[];
    }[];
  }[];
}

/**
 * Span flags: the W3C "sampled" bit, and bit 8 saying whether the parent was remote is known
 * (it is not: every span of a run is local), as OpenTelemetry's own exporters send them.
 */
const FLAGS = 0x101;
/** OTLP's SpanKind numbers. */
const KIND = { internal: 1, client: 3 } as const;
/** OTLP's StatusCode numbers. */
const STATUS = { unset: 0, ok: 1, error: 2 } as const;

function anyValue(v: AttrValue): OtlpAnyValue {
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number")
    return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v))
    return { arrayValue: { values: (v as readonly (string | number)[]).map(anyValue) } };
  return { doubleValue: (v as { double: number }).double };
}

/** Attributes in a stable order (by key), so the same trace always gives the same bytes. */
export function keyValues(attributes: Attributes): OtlpKeyValue[] {
  return Object.keys(attributes)
    .sort()
    .map((key) => ({ key, value: anyValue(attributes[key]!) }));
}

/** Epoch milliseconds as OTLP's decimal nanoseconds. */
export function nanos(ms: number): string {
  return (BigInt(Math.round(ms)) * 1_000_000n).toString();
}

function status(s: SpanStatus): OtlpSpan["status"] {
  return s.code === "error" ? { code: STATUS.error, message: s.message } : { code: STATUS[s.code] };
}

function otlpSpan(traceId: string, s: OtelSpan): OtlpSpan {
  return {
    traceId,
    spanId: s.spanId,
    ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
    name: s.name,
    kind: KIND[s.kind],
    startTimeUnixNano: nanos(s.startMs),
    endTimeUnixNano: nanos(s.endMs),
    attributes: keyValues(s.attributes),
    droppedAttributesCount: 0,
    events: s.events.map((e) => ({
      timeUnixNano: nanos(e.timeMs),
      name: e.name,
      attributes: keyValues(e.attributes),
      droppedAttributesCount: 0,
    })),
    droppedEventsCount: 0,
    links: s.links.map((l) => ({
      traceId: l.traceId,
      spanId: l.spanId,
      attributes: keyValues(l.attributes),
      droppedAttributesCount: 0,
      flags: FLAGS,
    })),
    droppedLinksCount: 0,
    status: status(s.status),
    flags: FLAGS,
  };
}

/** The key on the instrumentation scope that says which GenAI conventions release its spans follow. */
export const CONVENTIONS_KEY = "conductor.gen_ai.conventions";

/**
 * One request carrying every span of `traces`: one resource, and one scope per conventions
 * choice present (in practice one), which records that choice's release.
 */
export function otlpRequest(traces: readonly OtelTrace[], appVersion = "0.1.0"): OtlpTraceRequest {
  const choices = [...new Set(traces.map((t) => t.conventions))];
  return {
    resourceSpans: [
      {
        resource: {
          attributes: keyValues({
            "service.name": SERVICE_NAME,
            "service.version": appVersion,
          }),
          droppedAttributesCount: 0,
        },
        scopeSpans: choices.map((choice) => ({
          scope: {
            name: SCOPE_NAME,
            version: appVersion,
            attributes: keyValues({ [CONVENTIONS_KEY]: CONVENTIONS_VERSION[choice] }),
            droppedAttributesCount: 0,
          },
          spans: traces
            .filter((t) => t.conventions === choice)
            .flatMap((t) => t.spans.map((s) => otlpSpan(t.traceId, s))),
        })),
      },
    ],
  };
}

/** The request as the text to POST or save: two-space indent, stable key order. */
export function otlpJson(traces: readonly OtelTrace[], appVersion?: string): string {
  return `${JSON.stringify(otlpRequest(traces, appVersion), null, 2)}\n`;
}
