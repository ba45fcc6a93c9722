import type { Failure } from "../errors.ts";
import { ErrorCode } from "../errors.ts";
/**
 * Where traces are sent: a collector's OTLP/HTTP traces URL. A bare origin gets the standard
 * `/v1/traces` path (as `OTEL_EXPORTER_OTLP_ENDPOINT` does); any other path is used as given, so
 * Langfuse's `/api/public/otel/v1/traces` and Phoenix's `/v1/traces` both work as pasted.
 */
export type TracesUrl = { ok: true; url: string } | ({ ok: false } & Failure);

/**
 * OTLP/HTTP's two encodings, named as `OTEL_EXPORTER_OTLP_PROTOCOL` names them. Protobuf is the
 * default, as in OpenTelemetry's SDKs, and the only one some collectors (Phoenix) take.
 */
export type OtlpProtocol = "http/protobuf" | "http/json";
export const OTLP_PROTOCOLS = [
  "http/protobuf",
  "http/json",
] as const satisfies readonly OtlpProtocol[];
export const DEFAULT_OTLP_PROTOCOL: OtlpProtocol = "http/protobuf";

/** The Content-Type a request body of `protocol` is sent with. */
export function contentTypeOf(protocol: OtlpProtocol): string {
  return protocol === "http/json" ? "application/json" : "application/x-protobuf";
}

export function tracesUrl(input: string): TracesUrl {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      code: ErrorCode.invalid_url,
      message: `"${text}" is not a URL; give the collector's traces URL, e.g. http://localhost:4318/v1/traces.`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return {
      ok: false,
      code: ErrorCode.invalid_url,
      message: `The collector URL must start with http:// or https://, not ${url.protocol}`,
    };
  if (url.username || url.password)
    return {
      ok: false,
      code: ErrorCode.invalid_url,
      message: "Put credentials in a header (e.g. Authorization), not in the collector URL.",
    };
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/v1/traces";
  return { ok: true, url: url.toString() };
}

/**
 * What a collector's answer means for the user. OTLP/HTTP retries 429, 502, 503 and 504 (and a
 * connection that failed); anything else is final.
 */
export function retryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** A sentence for a refused export, saying what to check (415: the other encoding may do). */
export function refusalMessage(
  status: number,
  statusText: string,
  protocol: OtlpProtocol = DEFAULT_OTLP_PROTOCOL,
): string {
  const what = `${status}${statusText ? ` ${statusText}` : ""}`;
  if (status === 401 || status === 403)
    return `The collector refused the credentials (${what}): check the Authorization header.`;
  if (status === 404)
    return `The collector has no traces endpoint there (${what}): check the URL (it usually ends in /v1/traces).`;
  if (status === 413) return `The collector found the batch too large (${what}).`;
  if (status === 415) {
    const other = protocol === "http/json" ? "http/protobuf" : "http/json";
    return `The collector does not take ${protocol} (${what}): try the protocol ${other}.`;
  }
  if (status === 400) return `The collector could not read the ${protocol} request (${what}).`;
  return `The collector answered ${what}.`;
}
