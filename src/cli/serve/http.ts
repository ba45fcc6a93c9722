// The HTTP layer of `serve` on node:http: the guard (guard.ts), routes, CORS, the server key, and
// the body size limit.
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { McpEndpoint } from "../mcp/http.ts";
import type { ChatContext } from "./chat.ts";
import { handleChat } from "./chat.ts";
import type { ApiError } from "./errors.ts";
import { apiError } from "./errors.ts";
import type { GuardSettings } from "./guard.ts";
import { corsHeaders, guardRequest } from "./guard.ts";
import { sendError, sendJson } from "./reply.ts";
import { parseChatRequest } from "./request.ts";
import { parseResponsesRequest, responsesWire } from "./responses.ts";
import { chatWire } from "./sse.ts";

export interface HttpOptions {
  apiKey: string | undefined;
  /** Host, Origin and body-type rules, checked before anything else (guard.ts). */
  guard: GuardSettings;
  maxBodyBytes: number;
  /** `--mcp`: the MCP endpoint at /mcp (behind the same guard and key). */
  mcp?: McpEndpoint;
  /** True once shutdown began: requests on kept-alive connections are turned away. */
  draining: () => boolean;
}

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

/** A decoded path segment, or undefined for a malformed percent-escape (`%E0%A4%A`). */
function decodePath(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

let counter = 0;

/** A short id for one request, for the log and the run record. */
function requestId(): string {
  counter += 1;
  return `req-${process.pid.toString(36)}-${counter.toString(36)}`;
}

async function route(
  ctx: ChatContext,
  o: HttpOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const refused = guardRequest(req, o.guard);
  if (refused) {
    req.resume();
    ctx.log(`${refused.status} ${refused.code} ${req.method ?? "?"} ${path}`);
    return sendError(res, refused);
  }
  for (const [name, value] of Object.entries(corsHeaders(req, o.guard.cors)))
    res.setHeader(name, value);
  if (path === "/health" && req.method === "GET") {
    req.resume();
    // A load balancer polling /health during the drain sees 503 and sends new work elsewhere.
    const draining = o.draining();
    return sendJson(
      res,
      draining ? 503 : 200,
      { status: draining ? "draining" : "ok", running: ctx.queue.active, queued: ctx.queue.queued },
      draining ? { Connection: "close" } : {},
    );
  }
  if (o.draining()) {
    req.resume();
    return sendError(res, apiError("server_shutdown", "The server is shutting down."), {
      Connection: "close",
    });
  }
  if (req.method === "OPTIONS") {
    res.writeHead(204);
    return void res.end();
  }
  const known =
    path === "/v1/models" ||
    path.startsWith("/v1/models/") ||
    path === "/v1/chat/completions" ||
    path === "/v1/responses" ||
    (o.mcp !== undefined && path === "/mcp");
  if (!known) {
    req.resume();
    return sendError(res, apiError("not_found", `No route for ${req.method ?? "?"} ${path}.`));
  }
  if (o.apiKey !== undefined && !keyMatches(req.headers.authorization, o.apiKey)) {
    req.resume();
    const id = requestId();
    ctx.log(`${id} 401 wrong or missing server key`);
    return sendError(
      res,
      apiError(
        "invalid_api_key",
        "Missing or wrong API key: send the server key as a Bearer token.",
      ),
    );
  }
  if (path === "/mcp" && o.mcp) return o.mcp.handle(req, res);
  if (path.startsWith("/v1/models")) {
    req.resume();
    if (req.method !== "GET") return sendError(res, apiError("method_not_allowed", "Use GET."));
    const model = { id: ctx.model, object: "model", created: 0, owned_by: "conductor-studio" };
    if (path === "/v1/models") return sendJson(res, 200, { object: "list", data: [model] });
    const id = decodePath(path.slice("/v1/models/".length));
    if (id === undefined)
      return sendError(res, apiError("invalid_path", `The path ${path} has a bad percent-escape.`));
    if (id === ctx.model) return sendJson(res, 200, model);
    return sendError(
      res,
      apiError("model_not_found", `This server serves "${ctx.model}" only.`, "model"),
    );
  }
  if (req.method !== "POST") {
    req.resume();
    return sendError(res, apiError("method_not_allowed", "Use POST."));
  }
  const id = requestId();
  const body = await readBody(req, o.maxBodyBytes);
  if (!body.ok) {
    if (!body.tooLarge) return;
    ctx.log(`${id} 413 body over ${o.maxBodyBytes} bytes`);
    return sendError(
      res,
      apiError("request_too_large", `The request body is larger than ${o.maxBodyBytes} bytes.`),
      { Connection: "close" },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(body.text);
  } catch {
    ctx.log(`${id} 400 body is not JSON`);
    return sendError(res, apiError("invalid_json", "The request body is not valid JSON."));
  }
  const responses = path === "/v1/responses";
  const parsed = responses ? parseResponsesRequest(raw) : parseChatRequest(raw);
  const error = !parsed.ok ? parsed.error : modelError(ctx.model, parsed.request.model);
  if (error) {
    ctx.log(`${id} ${error.status} ${error.code}`);
    return sendError(res, error);
  }
  if (!parsed.ok) return;
  await handleChat(ctx, res, parsed.request, id, responses ? responsesWire : chatWire);
}

/** A request for a model other than the served one is a 404, as OpenAI answers it. */
function modelError(served: string, asked: string | undefined): ApiError | undefined {
  if (asked === undefined || asked === served) return undefined;
  return apiError(
    "model_not_found",
    `The model "${asked}" does not exist here: this server serves "${served}".`,
    "model",
  );
}

/** The server; every request is answered and no handler error reaches the process. */
export function createServeServer(
  ctx: ChatContext,
  o: HttpOptions,
  inFlight: Set<Promise<void>>,
): Server {
  return createServer((req, res) => {
    const done: Promise<void> = route(ctx, o, req, res)
      .catch((e: unknown) => {
        ctx.log(`internal error: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent)
          sendError(res, apiError("internal_error", "An internal error occurred."));
        else res.destroy();
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
}
