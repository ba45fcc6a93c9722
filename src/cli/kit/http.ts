// What the CLI's HTTP services (`serve`, its MCP endpoint, `reward`) share on node:http: the guard
// and CORS prelude, the server key, the body reader with its size limit, request ids, and a server
// that answers every request and lets no handler error reach the process.
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import { apiError } from "../serve/error-replies.ts";
import type { GuardSettings } from "../serve/guard.ts";
import { corsHeaders, guardRequest } from "../serve/guard.ts";
import { sendError } from "../serve/reply.ts";

type Body =
  { ok: true; text: string } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false };

/**
 * Reads the body up to `limit` bytes. A larger one is drained (so the client, still sending, can
 * read the 413) up to a hard cap past which the connection is cut.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    const parts: Buffer[] = [];
    let size = 0;
    let over = declared > limit;
    req.on("data", (part: Buffer) => {
      size += part.length;
      if (size > limit) over = true;
      if (!over) parts.push(part);
      else if (size > limit * 16 + 1024 * 1024) req.destroy();
    });
    req.on("end", () =>
      resolve(
        over
          ? { ok: false, tooLarge: true }
          : { ok: true, text: Buffer.concat(parts).toString("utf8") },
      ),
    );
    req.on("error", () => resolve({ ok: false, tooLarge: false }));
    req.on("close", () => resolve({ ok: false, tooLarge: over }));
  });
}

/** True for `Authorization: Bearer <key>` only: a bare key, or another scheme, is refused. */
export function keyMatches(header: string | undefined, key: string): boolean {
  const bearer = /^Bearer[ \t]+(\S+)\s*$/i.exec(header ?? "");
  if (!bearer) return false;
  const sent = Buffer.from(bearer[1] ?? "");
  const want = Buffer.from(key);
  return sent.length === want.length && timingSafeEqual(sent, want);
}

/** Short ids for one service's requests (`<prefix>-<pid>-<n>`), for the log and the run record. */
export function requestIds(prefix: string): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    return `${prefix}-${process.pid.toString(36)}-${counter.toString(36)}`;
  };
}

/**
 * The guard (Host, Origin, body type) first: a refused request is answered and true comes back;
 * an admitted one gets its CORS headers.
 */
export function refusedByGuard(
  req: IncomingMessage,
  res: ServerResponse,
  guard: GuardSettings,
  log: (line: string) => void,
): boolean {
  const refused = guardRequest(req, guard);
  if (refused) {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    req.resume();
    log(`${refused.status} ${refused.code} ${req.method ?? "?"} ${path}`);
    sendError(res, refused);
    return true;
  }
  for (const [name, value] of Object.entries(corsHeaders(req, guard.cors)))
    res.setHeader(name, value);
  return false;
}

/** Without the server key (when one is set) a request is answered 401 and true comes back. */
export function refusedKey(
  req: IncomingMessage,
  res: ServerResponse,
  apiKey: string | undefined,
  log: (line: string) => void,
  id: () => string,
): boolean {
  if (apiKey === undefined || keyMatches(req.headers.authorization, apiKey)) return false;
  req.resume();
  log(`${id()} 401 wrong or missing server key`);
  sendError(
    res,
    apiError("invalid_api_key", "Missing or wrong API key: send the server key as a Bearer token."),
  );
  return true;
}

/**
 * The body parsed as JSON, or undefined when the request was answered instead: 413 (with
 * `tooLarge` as the message) past `limit` bytes, 400 for a body that is not JSON, nothing for a
 * connection that went away.
 */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  o: { limit: number; tooLarge: string; log: (line: string) => void; id: string },
): Promise<{ raw: unknown } | undefined> {
  const body = await readBody(req, o.limit);
  if (!body.ok) {
    if (!body.tooLarge) return undefined;
    o.log(`${o.id} 413 body over ${o.limit} bytes`);
    sendError(res, apiError("request_too_large", o.tooLarge), { Connection: "close" });
    return undefined;
  }
  try {
    const raw: unknown = JSON.parse(body.text);
    return { raw };
  } catch {
    o.log(`${o.id} 400 body is not JSON`);
    sendError(res, apiError("invalid_json", "The request body is not valid JSON."));
    return undefined;
  }
}

/** The server of `route`; every request is answered and no handler error reaches the process. */
export function answeringServer(
  route: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  log: (line: string) => void,
  inFlight: Set<Promise<void>>,
): Server {
  return createServer((req, res) => {
    const done: Promise<void> = route(req, res)
      .catch((e: unknown) => {
        log(`internal error: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent)
          sendError(res, apiError("internal_error", "An internal error occurred."));
        else res.destroy();
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
}
