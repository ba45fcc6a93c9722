import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { ErrorCode } from "../errors.ts";
import { isObject } from "../schema/guards.ts";
import { LlmError, codeForStatus } from "./types.ts";

/** Replaces every occurrence of the key in a message, so no error text can carry it. */
export function scrubKey(text: string, apiKey: string | undefined): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join("[redacted]");
}

/**
 * Milliseconds to wait from `retry-after-ms`, or `retry-after` as seconds or an HTTP date;
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: Headers | undefined,
  now = Date.now(),
): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const CONTEXT_LENGTH =
  /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|input is too long/i;

/** A 400 that is really a key problem (Gemini answers a bad key with 400 "API key not valid"). */
const KEY_PROBLEM =
  /api[ _-]?key[^.]*\b(invalid|not valid|incorrect|expired|revoked)|\b(invalid|incorrect|expired|revoked) api[ _-]?key/i;

/** The error code for an HTTP status, read together with the provider's message and code. */
export function codeForFailure(status: number, message: string, code?: unknown): ErrorCode {
  if (
    (status === 400 || status === 413) &&
    (CONTEXT_LENGTH.test(message) || code === "context_length_exceeded")
  )
    return "context_length";
  if (status === 400 && (KEY_PROBLEM.test(message) || code === "invalid_api_key")) return "auth";
  return codeForStatus(status);
}

/** Error codes providers put in a string `code` or `type`, for an error that carries no status. */
const BY_NAME: [RegExp, ErrorCode][] = [
  [/overload/i, "server"],
  [/rate[_ ]?limit|too[_ ]many[_ ]requests|quota/i, "rate_limited"],
  [/context[_ ]length/i, "context_length"],
  [/too[_ ]large/i, "request_too_large"],
  [/api[_ ]key|authenticat|unauthori[sz]ed|permission/i, "auth"],
  [/not[_ ]found/i, "not_found"],
  [/timeout|timed[_ ]out/i, "timeout"],
  [/invalid[_ ]request|bad[_ ]request|validation/i, "bad_request"],
];

function statusIn(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 400 && n < 600 ? n : undefined;
}

function asText(value: unknown, max = 400): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * An error a provider sent inside a 200 stream (an `error` object in a data chunk, or an
 * `event: error` frame), classified by the status or code it carries: a 4xx is final, a 429, a 5xx
 * or "overloaded" may be retried; with neither, the server gave up part way (retryable `server`).
 * The provider's message is kept, with its detail (OpenRouter's `metadata.raw` and provider name).
 */
export function streamError(error: Record<string, unknown>, apiKey: string | undefined): LlmError {
  // Anthropic-style frames nest the real error one level down.
  const inner = isObject(error.error) ? error.error : error;
  const message = typeof inner.message === "string" ? inner.message : "";
  const names = [inner.code, inner.type].filter((v) => typeof v === "string").join(" ");
  const status = statusIn(inner.code) ?? statusIn(inner.status) ?? statusIn(error.status);
  const metadata = isObject(inner.metadata) ? inner.metadata : {};
  const extras = [
    typeof metadata.provider_name === "string" ? `provider: ${metadata.provider_name}` : "",
    metadata.raw !== undefined && metadata.raw !== null ? `detail: ${asText(metadata.raw)}` : "",
  ].filter(Boolean);
  const text = [
    status ? `(${status} inside the stream)` : "(inside the stream)",
    message || (names ? "" : asText(inner)),
    names && !status ? `[${names}]` : "",
    extras.length ? `(${extras.join("; ")})` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const code: ErrorCode = /overload/i.test(`${names} ${message}`)
    ? "server"
    : status !== undefined
      ? codeForFailure(status, message, inner.code)
      : (BY_NAME.find(([re]) => re.test(names))?.[1] ?? "server");
  return new LlmError(code, scrubKey(text, apiKey), status);
}

function causeOf(e: Error): string {
  const cause: unknown = e.cause;
  if (!(cause instanceof Error)) return "";
  const inner: unknown = cause.cause;
  const detail = inner instanceof Error ? inner.message : "";
  return detail ? `${cause.message}: ${detail}` : cause.message;
}

/**
 * Maps anything the openai client throws to an `LlmError`. `streaming` says whether the response had
 * started, so a broken body reads as `dropped` rather than `network`. The key never reaches a message.
 */
export function toLlmError(
  e: unknown,
  signal: AbortSignal,
  apiKey: string | undefined,
  streaming: boolean,
): LlmError {
  const scrub = (text: string) => scrubKey(text, apiKey);
  if (signal.aborted || e instanceof APIUserAbortError) return new LlmError("aborted");
  if (e instanceof LlmError) return e;
  if (e instanceof APIConnectionTimeoutError) return new LlmError("timeout");
  if (e instanceof APIConnectionError) {
    const cause = causeOf(e);
    return new LlmError("network", scrub(cause ? `${e.message} (${cause})` : e.message));
  }
  if (e instanceof APIError) {
    // `instanceof` on the generic class narrows to APIError<any, ...>; pin the defaults back.
    const apiError = e as APIError;
    const status = apiError.status;
    if (status === undefined) {
      return isObject(apiError.error)
        ? streamError(apiError.error, apiKey)
        : new LlmError("server", scrub(apiError.message));
    }
    const message = scrub(apiError.message);
    const code = codeForFailure(status, message, apiError.code);
    return new LlmError(code, message, status, parseRetryAfter(apiError.headers));
  }
  if (e instanceof SyntaxError) {
    return new LlmError("server", scrub(`The stream held malformed JSON: ${e.message}`));
  }
  const message =
    e instanceof Error ? `${e.message}${causeOf(e) ? ` (${causeOf(e)})` : ""}` : String(e);
  return new LlmError(streaming ? "dropped" : "network", scrub(message));
}
