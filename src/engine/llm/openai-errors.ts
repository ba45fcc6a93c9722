import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
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
      // An error event inside an SSE stream: the server gave up part way.
      return new LlmError("server", scrub(apiError.message));
    }
    const message = scrub(apiError.message);
    const code =
      (status === 400 || status === 413) &&
      (CONTEXT_LENGTH.test(message) || apiError.code === "context_length_exceeded")
        ? "context_length"
        : codeForStatus(status);
    return new LlmError(code, message, status, parseRetryAfter(apiError.headers));
  }
  if (e instanceof SyntaxError) {
    return new LlmError("server", scrub(`The stream held malformed JSON: ${e.message}`));
  }
  const message =
    e instanceof Error ? `${e.message}${causeOf(e) ? ` (${causeOf(e)})` : ""}` : String(e);
  return new LlmError(streaming ? "dropped" : "network", scrub(message));
}
