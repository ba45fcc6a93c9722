// The HTTP layer of `serve` on node:http: the guard (guard.ts), routes, CORS, the server key, and
// the body size limit.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "node:http";
import {
  answeringServer,
  readJsonBody,
  refusedByGuard,
  refusedKey,
  requestIds,
} from "../kit/http.ts";
import type { McpEndpoint } from "../mcp/http.ts";
import type { ChatContext } from "./chat.ts";
import { handleChat } from "./chat.ts";
import type { ApiError } from "./error-replies.ts";
import { apiError } from "./error-replies.ts";
import type { GuardSettings } from "./guard.ts";
import { sendError, sendJson } from "./reply.ts";
import { parseChatRequest } from "./request.ts";
import { parseResponsesRequest, responsesWire } from "./responses.ts";
import { chatWire } from "./sse-stream.ts";

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

/** A decoded path segment, or undefined for a malformed percent-escape (`%E0%A4%A`). */
function decodePath(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A short id for one request, for the log and the run record. */
const requestId = requestIds("req");

async function route(
  ctx: ChatContext,
  o: HttpOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const log = (line: string) => ctx.log(line);
  if (refusedByGuard(req, res, o.guard, log)) return;
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
  if (refusedKey(req, res, o.apiKey, log, requestId)) return;
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
  const limit = o.maxBodyBytes;
  const tooLarge = `The request body is larger than ${limit} bytes.`;
  const body = await readJsonBody(req, res, { limit, tooLarge, log, id });
  if (!body) return;
  const { raw } = body;
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
  return answeringServer(
    (req, res) => route(ctx, o, req, res),
    (line) => ctx.log(line),
    inFlight,
  );
}
