/**
 * A trace as the mapping builds it, before any wire format: plain data with times in epoch
 * milliseconds. otlp.ts turns a list of these into OTLP/HTTP JSON.
 */

/** A double-valued attribute (cost): kept apart so 0 dollars is not sent as an integer. */
export interface Double {
  double: number;
}

/** An attribute value: a string, an integer, a boolean, a double, or a list of strings or integers. */
export type AttrValue = string | number | boolean | Double | readonly string[] | readonly number[];
export type Attributes = Record<string, AttrValue>;

export const double = (n: number): Double => ({ double: n });

export type SpanKind = "internal" | "client";
export type SpanStatus = { code: "unset" } | { code: "ok" } | { code: "error"; message: string };

export interface SpanEvent {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

/** A link to a span of another trace: a run points at the run it continues. */
export interface SpanLink {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

export interface OtelSpan {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKind;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  status: SpanStatus;
  events: SpanEvent[];
  links: SpanLink[];
}

/** One run as one trace. Spans are in tree order: every parent before its children. */
export interface OtelTrace {
  traceId: string;
  runId: string;
  spans: OtelSpan[];
}

/** What the mapping may add: message contents (opt-in) and attributes for the root span. */
export interface TraceOptions {
  /** Record prompts, answers, reasoning and subtasks (the conventions' opt-in content). */
  content?: boolean;
  /** Extra attributes for the root span, e.g. an evaluation item's strategy and verdict. */
  rootAttributes?: Attributes;
}
