// Writing answers for `serve`: JSON bodies and OpenAI-style errors.
import type { ServerResponse } from "node:http";
import type { ApiError } from "./error-replies.ts";
import { errorBody, errorHeaders } from "./error-replies.ts";

/** Answers with a JSON body (CORS headers were set on `res` already, when they apply). */
export function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

/** Answers with an OpenAI-style error object and its `x-should-retry` (and `Retry-After`). */
export function sendError(
  res: ServerResponse,
  e: ApiError,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const body = errorBody(e);
  res.writeHead(e.status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    ...errorHeaders(e),
    ...headers,
  });
  res.end(body);
}
