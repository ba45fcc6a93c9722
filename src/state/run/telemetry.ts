/**
 * Runs as OpenTelemetry traces from the studio: an OTLP JSON file to download, or a POST from
 * this page to the collector in Settings, as protobuf (the default; its encoder is loaded only
 * then, off the first page load) or JSON. The browser sends it, so the collector must allow this
 * page's origin (CORS); when it does not, the user is told so and how to allow it, and loses
 * nothing: the same trace can still be saved as a file.
 */
import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
import { contentTypeOf, refusalMessage, tracesUrl } from "../../engine/otel/endpoint.ts";
import { traceOf } from "../../engine/otel/map.ts";
import { otlpJson, otlpRequest } from "../../engine/otel/otlp.ts";
import type { OtelTrace } from "../../engine/otel/span.ts";
import { importRun } from "../../engine/run/export.ts";
import type { RunRecord } from "../../engine/schema/record.ts";
import { exportTexts } from "./historyController.ts";
import type { TelemetrySettings } from "../slices/settings.ts";

export type SendResult = { ok: true; message: string } | ({ ok: false } & Failure);

/** The OTLP JSON request for `records`, one trace each. */
export function traceText(
  records: readonly RunRecord[],
  settings: Pick<TelemetrySettings, "content" | "conventions">,
): string {
  return otlpJson(records.map((r) => traceOf(r, settings)));
}

/** The request body in the chosen protocol; the protobuf encoder is a lazy chunk. */
async function body(traces: readonly OtelTrace[], settings: TelemetrySettings) {
  if (settings.protocol === "http/json") return otlpJson(traces);
  const { otlpProtobuf } = await import("../../engine/otel/otlp-protobuf.ts");
  return otlpProtobuf(otlpRequest(traces));
}

/** The stored runs with these keys, read back as records (unreadable ones left out). */
export async function storedRecords(keys: string[]): Promise<RunRecord[]> {
  const texts = await exportTexts(keys);
  return texts.flatMap((t) => {
    const read = importRun(t.text);
    return read.ok ? [read.record] : [];
  });
}

/** Why a browser POST failed without an answer: unreachable, or (most often) CORS. */
function unreachable(url: string): string {
  const origin = globalThis.location?.origin ?? "this page's origin";
  return (
    `The browser could not reach ${url}, or the collector does not allow requests from ${origin} ` +
    `(CORS). Allow that origin at the collector (Phoenix: PHOENIX_ALLOWED_ORIGINS=${origin}; an ` +
    `OpenTelemetry Collector: cors.allowed_origins under receivers.otlp.protocols.http), or use ` +
    `"Export as OpenTelemetry trace" and send the file from a terminal.`
  );
}

/** Posts the runs' traces to the collector in `settings`; the result says what happened. */
export async function sendTraces(
  records: readonly RunRecord[],
  settings: TelemetrySettings,
  post: typeof fetch = fetch,
): Promise<SendResult> {
  const target = tracesUrl(settings.collectorURL);
  if (!target.ok) return { ok: false, code: target.code, message: target.message };
  if (!records.length)
    return { ok: false, code: ErrorCode.traces_not_sent, message: "No run to send." };
  const traces = records.map((r) => traceOf(r, settings));
  const spans = traces.reduce((n, t) => n + t.spans.length, 0);
  const headers: Record<string, string> = { "Content-Type": contentTypeOf(settings.protocol) };
  // Sent only to the collector it was entered for; never stored.
  if (settings.authorization.trim()) headers.Authorization = settings.authorization.trim();
  let payload: string | Uint8Array<ArrayBuffer>;
  try {
    payload = await body(traces, settings);
  } catch (e: unknown) {
    // The encoder's chunk could not be fetched (the app was updated, or the network dropped).
    const why = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      code: ErrorCode.traces_not_sent,
      message: `Could not load the protobuf encoder (${why}): reload the page, or choose OTLP/HTTP JSON in Settings → Tracing.`,
    };
  }
  let res: Response;
  try {
    res = await post(target.url, {
      method: "POST",
      headers,
      body: payload,
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    return { ok: false, code: ErrorCode.traces_not_sent, message: unreachable(target.url) };
  }
  if (!res.ok)
    return {
      ok: false,
      code: ErrorCode.traces_not_sent,
      message: refusalMessage(res.status, res.statusText, settings.protocol),
    };
  const n = records.length;
  return {
    ok: true,
    message: `Sent ${n} trace${n === 1 ? "" : "s"} (${spans} spans) to ${target.url}.`,
  };
}
