// The HTTP layer of `reward` on node:http: GET /health and POST /v1/rewards, the server key and the
// body limit, with the CLI kit's guard, body reader and key check (kit/http.ts), and serve's queue
// and error answers.
import type { IncomingMessage, ServerResponse, Server } from "node:http";
import { describeIssues } from "../../engine/schema/guards.ts";
import type { RewardRequest, RewardResult } from "./request.ts";
import { RewardRequestSchema } from "./request.ts";
import { apiError } from "../serve/error-replies.ts";
import type { GuardSettings } from "../serve/guard.ts";
import {
  answeringServer,
  readJsonBody,
  refusedByGuard,
  refusedKey,
  requestIds,
} from "../kit/http.ts";
import type { RunQueue } from "../serve/request-queue.ts";
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

const requestId = requestIds("rw");

async function route(c: RewardHttpContext, req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  const log = (line: string) => c.log(line);
  if (refusedByGuard(req, res, c.guard, log)) return;
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
  if (refusedKey(req, res, c.apiKey, log, () => id)) return;
  if (req.method !== "POST") {
    req.resume();
    return sendError(res, apiError("method_not_allowed", "Use POST."));
  }
  const limit = c.maxBodyBytes;
  const tooLarge = `The request body is larger than ${limit} bytes; send smaller batches or raise --max-body-bytes.`;
  const body = await readJsonBody(req, res, { limit, tooLarge, log, id });
  if (!body) return;
  const parsed = RewardRequestSchema.safeParse(body.raw);
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
  return answeringServer(
    (req, res) => route(c, req, res),
    (line) => c.log(line),
    inFlight,
  );
}
