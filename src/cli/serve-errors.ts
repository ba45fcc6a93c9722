// OpenAI-style error answers for `serve`: one table of statuses, types and codes.

/** An error as `serve` answers it: the HTTP status and the body's `error` object. */
export interface ApiError {
  status: number;
  message: string;
  type: string;
  code: string;
  param: string | null;
}

const TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  404: "invalid_request_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
  499: "request_cancelled",
  500: "server_error",
  502: "server_error",
  503: "server_error",
};

/** An error with the type that goes with its status. */
export function apiError(
  status: number,
  code: string,
  message: string,
  param: string | null = null,
): ApiError {
  return { status, code, message, param, type: TYPES[status] ?? "server_error" };
}

/** The JSON body of an error answer (also an SSE `data:` payload once a stream has begun). */
export function errorBody(e: ApiError): string {
  return JSON.stringify({
    error: { message: e.message, type: e.type, code: e.code, param: e.param },
  });
}
