// The HTTP layer of `reward` on node:http: GET /health and POST /v1/rewards, the server key and the
// body limit, with serve's guard, body reader, key check, queue and error answers.
import type { IncomingMessage, ServerResponse, Server } from "node:http";
import { createServer } from "node:http";
import { describeIssues } from "../../engine/schema/guards.ts";
import type { RewardRequest, RewardResult } from "./request.ts";
import { RewardRequestSchema } from "./request.ts";
import { apiError } from "../serve/errors.ts";
import type { GuardSettings } from "../serve/guard.ts";
import { corsHeaders, guardRequest } from "../serve/guard.ts";
import { keyMatches, readBody } from "../serve/http.ts";
import type { RunQueue } from "../serve/queue.ts";
import { sendError, sendJson } from "../serve/reply.ts";

export interface RewardHttpContext {
  apiKey: string | undefined;
  /** Host, Origin and body-type rules (serve/guard.ts), checked before anything else. */
  guard: GuardSettings;
  maxBodyBytes: number;
  queue: RunQueue;
  draining: () => boolean;
  log: (line: string) => void;
  /** What GET /health reports beyond the status: counters, the cache's hits and savings. */
  health: () => Record<string, unknown>;
  /** Scores a batch; `signal` aborts when the client goes away or the service stops. */
  score: (request: RewardRequest, signal: AbortSignal, id: string) => Promise<RewardResult[]>;
  /** Each batch's controller, so a shutdown past its grace can cancel what still runs. */
  track: (run: AbortController) => () => void;
}

let counter = 0;
function requestId(): string {
  counter += 1;
  return `rw-${process.pid.toString(36)}-${counter.toString(36)}`;
}

async function route(c: RewardHttpContext, req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const refused = guardRequest(req, c.guard);
  if (refused) {
    req.resume();
    c.log(`${refused.status} ${refused.code} ${req.method ?? "?"} ${path}`);
    return sendError(res, refused);
  }
  for (const [name, value] of Object.entries(corsHeaders(req, c.guard.cors)))
    res.setHeader(name, value);
  if (req.method === "OPTIONS") {
    req.resume();
    res.writeHead(204);
    return void res.end();
  }
  if (path === "/health" && req.method === "GET") {
    req.resume();
    const status = c.draining() ? "draining" : "ok";
    return sendJson(res, c.draining() ? 503 : 200, {
      status,
      batches_running: c.queue.active,
      batches_queued: c.queue.queued,
      ...c.health(),
    });
  }
  if (c.draining()) {
    req.resume();
    return sendError(res, apiError("server_shutdown", "The service is shutting down."), {
      Connection: "close",
    });
  }
  if (path !== "/v1/rewards") {
    req.resume();
    return sendError(res, apiError("not_found", `No route for ${req.method ?? "?"} ${path}.`));
  }
  const id = requestId();
  if (c.apiKey !== undefined && !keyMatches(req.headers.authorization, c.apiKey)) {
    req.resume();
    c.log(`${id} 401 wrong or missing server key`);
    return sendError(
      res,
      apiError(
        "invalid_api_key",
        "Missing or wrong API key: send the server key as a Bearer token.",
      ),
    );
  }
  if (req.method !== "POST") {
    req.resume();
    return sendError(res, apiError("method_not_allowed", "Use POST."));
  }
  const body = await readBody(req, c.maxBodyBytes);
  if (!body.ok) {
    if (!body.tooLarge) return;
    c.log(`${id} 413 body over ${c.maxBodyBytes} bytes`);
    const message = `The request body is larger than ${c.maxBodyBytes} bytes; send smaller batches or raise --max-body-bytes.`;
    return sendError(res, apiError("request_too_large", message), { Connection: "close" });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(body.text);
  } catch {
    c.log(`${id} 400 body is not JSON`);
    return sendError(res, apiError("invalid_json", "The request body is not valid JSON."));
  }
  const parsed = RewardRequestSchema.safeParse(raw);
  if (!parsed.success) {
    c.log(`${id} 400 invalid request`);
    return sendError(res, apiError("invalid_request", describeIssues(parsed.error), "items"));
  }
  const run = new AbortController();
  const untrack = c.track(run);
  // A client that goes away takes its batch with it: nothing would read the rewards.
  const onClose = () => {
    if (!res.writableFinished) run.abort();
  };
  res.on("close", onClose);
  try {
    const slot = await c.queue.acquire(run.signal);
    if (!slot.ok) {
      if (slot.reason === "aborted") return;
      c.log(`${id} ${slot.reason === "full" ? 429 : 503} batch refused (${slot.reason})`);
      return slot.reason === "full"
        ? sendError(res, apiError("queue_full", "Too many batches are waiting; retry later."), {
            "Retry-After": "1",
          })
        : sendError(res, apiError("server_shutdown", "The service is shutting down."));
    }
    try {
      const rewards = await c.score(parsed.data, run.signal, id);
      sendJson(res, 200, { rewards });
    } finally {
      slot.release();
    }
  } finally {
    res.off("close", onClose);
    untrack();
  }
}

/** The reward server; every request is answered and no handler error reaches the process. */
export function createRewardServer(c: RewardHttpContext, inFlight: Set<Promise<void>>): Server {
  return createServer((req, res) => {
    const done: Promise<void> = route(c, req, res)
      .catch((e: unknown) => {
        c.log(`internal error: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent)
          sendError(res, apiError("internal_error", "An internal error occurred."));
        else res.destroy();
      })
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
}
