// OpenAI-style error answers for `serve`: one table of codes, each with its status and whether a
// client's retry could help. The OpenAI SDKs (and most harnesses built on them) retry every 5xx
// and 429 unless `x-should-retry: false` says otherwise; a retried request re-runs the whole
// workflow, so failures that a retry cannot fix must say so.
import { z } from "zod";
import { ErrorCode, isErrorCode } from "../../engine/errors.ts";

export const ServeErrorCodeSchema = z.enum([
  // The request itself
  "invalid_json",
  "invalid_request",
  "invalid_path",
  "unsupported_content",
  "unsupported_parameter",
  "missing_user_message",
  "invalid_api_key",
  "host_not_allowed",
  "origin_not_allowed",
  "unsupported_media_type",
  "not_found",
  "model_not_found",
  "method_not_allowed",
  "request_too_large",
  "context_length_exceeded",
  // This server
  "queue_full",
  "server_shutdown",
  "internal_error",
  "stream_diverged",
  // The Conductor and the workers behind it
  "plan_error",
  "upstream_auth",
  "upstream_bad_request",
  "upstream_not_found",
  "upstream_rate_limited",
  "upstream_timeout",
  "upstream_unavailable",
  "call_budget",
]);
export type ServeErrorCode = z.infer<typeof ServeErrorCodeSchema>;

interface CodeInfo {
  status: number;
  /** Whether the same request, sent again, could succeed: sent as `x-should-retry`. */
  retry: boolean;
}

const CODES: Record<ServeErrorCode, CodeInfo> = {
  invalid_json: { status: 400, retry: false },
  invalid_request: { status: 400, retry: false },
  invalid_path: { status: 400, retry: false },
  unsupported_content: { status: 400, retry: false },
  unsupported_parameter: { status: 400, retry: false },
  missing_user_message: { status: 400, retry: false },
  invalid_api_key: { status: 401, retry: false },
  host_not_allowed: { status: 403, retry: false },
  origin_not_allowed: { status: 403, retry: false },
  unsupported_media_type: { status: 415, retry: false },
  not_found: { status: 404, retry: false },
  model_not_found: { status: 404, retry: false },
  method_not_allowed: { status: 405, retry: false },
  request_too_large: { status: 413, retry: false },
  context_length_exceeded: { status: 400, retry: false },
  queue_full: { status: 429, retry: true },
  server_shutdown: { status: 503, retry: true },
  internal_error: { status: 500, retry: true },
  stream_diverged: { status: 502, retry: true },
  // The engine already retried the call (or re-planned); the same plan would fail the same way.
  plan_error: { status: 502, retry: false },
  upstream_auth: { status: 502, retry: false },
  upstream_bad_request: { status: 502, retry: false },
  upstream_not_found: { status: 502, retry: false },
  upstream_rate_limited: { status: 429, retry: true },
  upstream_timeout: { status: 504, retry: true },
  upstream_unavailable: { status: 502, retry: true },
  call_budget: { status: 502, retry: false },
};

const TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  403: "invalid_request_error",
  404: "invalid_request_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  415: "invalid_request_error",
  429: "rate_limit_error",
  500: "server_error",
  502: "server_error",
  503: "server_error",
  504: "server_error",
};

/** An error as `serve` answers it: the HTTP status, the body's `error` object, and its headers. */
export interface ApiError {
  status: number;
  message: string;
  type: string;
  code: ServeErrorCode;
  param: string | null;
  retry: boolean;
  /** Seconds for `Retry-After`, when the server (or the provider behind it) knows. */
  retryAfterS?: number;
}

/** An error with the status, type and retry advice that go with its code. */
export function apiError(
  code: ServeErrorCode,
  message: string,
  param: string | null = null,
  retryAfterS?: number,
): ApiError {
  const { status, retry } = CODES[code];
  return {
    status,
    code,
    message,
    param,
    retry,
    type: TYPES[status] ?? "server_error",
    ...(retryAfterS !== undefined ? { retryAfterS } : {}),
  };
}

/** The headers that go with an error answer: `x-should-retry` always, `Retry-After` when known. */
export function errorHeaders(e: ApiError): Record<string, string> {
  return {
    "x-should-retry": String(e.retry),
    ...(e.retryAfterS !== undefined ? { "Retry-After": String(e.retryAfterS) } : {}),
  };
}

/** The JSON body of an error answer (also an SSE `data:` payload once a stream has begun). */
export function errorBody(e: ApiError): string {
  return JSON.stringify({
    error: { message: e.message, type: e.type, code: e.code, param: e.param },
  });
}

/**
 * Which answer a failed model call becomes (`plan_error` for a plan that does not parse). Records
 * keep codes as strings (a newer engine may add one), so anything unknown reads as a plan error.
 */
export function codeForCall(code: string): ServeErrorCode {
  return (isErrorCode(code) ? SERVE_CODE_FOR_CALL[code] : undefined) ?? "plan_error";
}

/** A failed call's code -> its answer's code; a code not listed here (the plan ones) is a plan error. */
const SERVE_CODE_FOR_CALL: Partial<Record<ErrorCode, ServeErrorCode>> = {
  [ErrorCode.auth]: "upstream_auth",
  [ErrorCode.bad_request]: "upstream_bad_request",
  [ErrorCode.grammar_refused]: "upstream_bad_request",
  [ErrorCode.not_found]: "upstream_not_found",
  [ErrorCode.context_length]: "context_length_exceeded",
  [ErrorCode.request_too_large]: "context_length_exceeded",
  [ErrorCode.prompt_too_long]: "context_length_exceeded",
  [ErrorCode.rate_limited]: "upstream_rate_limited",
  [ErrorCode.timeout]: "upstream_timeout",
  [ErrorCode.budget]: "call_budget",
  [ErrorCode.server]: "upstream_unavailable",
  [ErrorCode.network]: "upstream_unavailable",
  [ErrorCode.dropped]: "upstream_unavailable",
  [ErrorCode.empty_response]: "upstream_unavailable",
  [ErrorCode.unknown]: "upstream_unavailable",
  [ErrorCode.upstream_failed]: "upstream_unavailable",
};
