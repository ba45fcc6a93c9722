// Test support: a local OTLP/HTTP receiver on 127.0.0.1 that keeps what it is sent, reads
// protobuf bodies with the official definitions (otlp-proto.ts) and JSON ones as JSON, checks each
// against the OTLP shape, and can refuse; `protobufOnly` answers 415 to anything but
// application/x-protobuf, as Phoenix's receiver (routers/v1/traces.py) does. Not a test file itself.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { decodeOtlp } from "./otlp-proto.ts";

const AnyValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.object({ stringValue: z.string() }).strict(),
    z.object({ boolValue: z.boolean() }).strict(),
    z.object({ intValue: z.string().regex(/^-?\d+$/) }).strict(),
    z.object({ doubleValue: z.number() }).strict(),
    z.object({ arrayValue: z.object({ values: z.array(AnyValue) }).strict() }).strict(),
  ]),
);
const KeyValue = z.object({ key: z.string(), value: AnyValue }).strict();
const Hex = (n: number) => z.string().regex(new RegExp(`^[0-9a-f]{${n}}$`));
const SpanSchema = z.object({
  traceId: Hex(32),
  spanId: Hex(16),
  parentSpanId: Hex(16).optional(),
  name: z.string(),
  kind: z.number().int(),
  startTimeUnixNano: z.string().regex(/^\d+$/),
  endTimeUnixNano: z.string().regex(/^\d+$/),
  // Decoded protobuf leaves out what holds the proto3 default (no attributes, status code 0).
  attributes: z.array(KeyValue).default([]),
  status: z.object({ code: z.number().int().default(0), message: z.string().optional() }),
});
export type ReceivedSpan = z.infer<typeof SpanSchema> & { attrs: Record<string, unknown> };

const RequestSchema = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: z.array(KeyValue).default([]) }),
      scopeSpans: z.array(
        z.object({
          scope: z.object({ name: z.string(), attributes: z.array(KeyValue).default([]) }),
          spans: z.array(SpanSchema).default([]),
        }),
      ),
    }),
  ),
});

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  contentType: string | undefined;
  spans: ReceivedSpan[];
  /** Each scope's attributes (the GenAI conventions release it records), by attribute key. */
  scopes: Record<string, unknown>[];
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Every span received so far, all requests together. */
  spans(): ReceivedSpan[];
  /** Resolves once `test` holds for what was received (checked on every request). */
  until(test: (r: Receiver) => boolean): Promise<void>;
  close(): Promise<void>;
}

function plain(v: unknown): unknown {
  const o = v as Record<string, unknown>;
  if ("stringValue" in o) return o.stringValue;
  if ("boolValue" in o) return o.boolValue;
  if ("intValue" in o) return Number(o.intValue);
  if ("doubleValue" in o) return o.doubleValue;
  return ((o.arrayValue as { values: unknown[] }).values ?? []).map(plain);
}

/**
 * Starts a receiver; `refuse` answers that status to every request instead of 200; `cors` allows
 * that browser origin (preflight included), as Phoenix's PHOENIX_ALLOWED_ORIGINS does.
 */
export async function startReceiver(
  options: { refuse?: number; cors?: string; protobufOnly?: boolean } = {},
): Promise<Receiver> {
  const requests: Received[] = [];
  const waiters: { test: (r: Receiver) => boolean; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    if (options.cors) {
      res.setHeader("Access-Control-Allow-Origin", options.cors);
      res.setHeader("Access-Control-Allow-Headers", "content-type, authorization");
      res.setHeader("Access-Control-Allow-Methods", "POST");
    }
    if (req.method === "OPTIONS") {
      res.writeHead(options.cors ? 204 : 403).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (options.refuse) {
        res.writeHead(options.refuse, { "Content-Type": "application/json" }).end("{}");
        return;
      }
      const type = req.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
      const protobuf = type === "application/x-protobuf";
      if (options.protobufOnly && !protobuf) {
        res.writeHead(415).end(`Unsupported content type: ${type ?? "none"}`);
        return;
      }
      const body = Buffer.concat(chunks);
      let doc: unknown;
      try {
        doc = protobuf ? decodeOtlp(body) : JSON.parse(body.toString("utf8"));
      } catch (e: unknown) {
        res.writeHead(400).end(`Cannot read the request: ${String(e)}`);
        return;
      }
      const parsed = RequestSchema.safeParse(doc);
      if (req.url !== "/v1/traces" || !parsed.success) {
        res.writeHead(400).end(parsed.success ? "wrong path" : parsed.error.message);
        return;
      }
      const spans = parsed.data.resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) =>
          s.spans.map((span) => ({
            ...span,
            attrs: Object.fromEntries(span.attributes.map((a) => [a.key, plain(a.value)])),
          })),
        ),
      );
      const scopes = parsed.data.resourceSpans.flatMap((r) =>
        r.scopeSpans.map((s) =>
          Object.fromEntries(s.scope.attributes.map((a) => [a.key, plain(a.value)])),
        ),
      );
      requests.push({ headers: req.headers, contentType: type, spans, scopes });
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      for (const w of [...waiters]) {
        if (!w.test(receiver)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    spans: () => requests.flatMap((r) => r.spans),
    until: (test) =>
      test(receiver)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ test, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}

/** The traces received, each as its spans; checks each is whole (one root, every parent present). */
export function wholeTraces(spans: readonly ReceivedSpan[]): Map<string, ReceivedSpan[]> {
  const byTrace = new Map<string, ReceivedSpan[]>();
  for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
  for (const [id, list] of byTrace) {
    const ids = new Set(list.map((s) => s.spanId));
    const roots = list.filter((s) => !s.parentSpanId);
    if (roots.length !== 1 || roots[0]!.name !== "invoke_workflow conductor")
      throw new Error(`trace ${id} has ${roots.length} roots`);
    const orphan = list.find((s) => s.parentSpanId && !ids.has(s.parentSpanId));
    if (orphan) throw new Error(`trace ${id}: span "${orphan.name}" has no parent in the trace`);
  }
  return byTrace;
}
