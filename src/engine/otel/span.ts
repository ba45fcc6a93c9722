/**
 * A trace as the mapping builds it, before any wire format: plain data with times in epoch
 * milliseconds. otlp.ts turns a list of these into an OTLP request (JSON or protobuf).
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

/**
 * Which names of the GenAI semantic conventions a trace uses. "current": the conventions' own
 * repository, v0.1.0 (the workflow is an internal invoke_agent span named by `gen_ai.agent.name`;
 * internal agent spans carry no `gen_ai.agent.id`). "legacy": semantic-conventions v1.41.0's names
 * (`gen_ai.workflow.name`, `gen_ai.agent.id`), kept for one version for dashboards built on them.
 */
export type GenAiConventions = "current" | "legacy";
export const GEN_AI_CONVENTIONS = [
  "current",
  "legacy",
] as const satisfies readonly GenAiConventions[];

/** The conventions release each choice follows, recorded on the instrumentation scope. */
export const CONVENTIONS_VERSION: Record<GenAiConventions, string> = {
  current: "semantic-conventions-genai/v0.1.0",
  legacy: "semantic-conventions/v1.41.0",
};

/** One run as one trace. Spans are in tree order: every parent before its children. */
export interface OtelTrace {
  traceId: string;
  runId: string;
  /** The convention names its spans use. */
  conventions: GenAiConventions;
  spans: OtelSpan[];
}

/** What the mapping may add: message contents (opt-in) and attributes for the root span. */
export interface TraceOptions {
  /** Record prompts, answers, reasoning and subtasks (the conventions' opt-in content). */
  content?: boolean;
  /** Extra attributes for the root span, e.g. an evaluation item's strategy and verdict. */
  rootAttributes?: Attributes;
  /** The GenAI convention names to use; "current" unless asked for "legacy". */
  conventions?: GenAiConventions;
}
