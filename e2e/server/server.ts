import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatBody, Reply, ReplySpec } from "./reply.ts";
import type { StaticFile } from "./http.ts";
import {
  corsHeadersFor,
  flatHeaders,
  parseJson,
  readBody,
  sendFile,
  wait,
  waitWhileOpen,
} from "./http.ts";
import type { Gate, GateInternal } from "./gate.ts";
import { createGate } from "./gate.ts";
import { framesOf, loadFixture, writeFlushed } from "./replay.ts";
import {
  ChatBodySchema,
  accepts,
  chunksOf,
  errorKind,
  errorMessageFor,
  resolveReply,
  usageOf,
} from "./reply.ts";

export type { ChatBody, Reply, ReplySpec, ScriptedUsage } from "./reply.ts";
export type { StaticFile } from "./http.ts";
export type { Gate } from "./gate.ts";

export interface TestServerOptions {
  /** Port to listen on; 0 (default) picks a free one. Always 127.0.0.1. */
  port?: number;
  /** Model -> the only bearer key accepted for it; a wrong or missing key gets a 401. */
  keys?: Record<string, string>;
  /** Send CORS headers and answer preflights (default true); false lets a browser block calls. */
  cors?: boolean;
  /** Extra model names for GET /v1/models. */
  models?: string[];
}

/** One request as the server saw it; header names are lower case. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  body: unknown;
  time: number;
}

/** A client that went away before its answer was complete (an aborted call, say). */
export interface RecordedDisconnect {
  model: string;
  /** `waiting`: before the first byte (headers included); `streaming`: part way through the body. */
  phase: "waiting" | "streaming";
  time: number;
}

export interface TestServer {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  /** `${url}/v1`, what an OpenAI client takes as its base URL. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Chat calls whose client disconnected before the server finished answering, in order. */
  disconnects: RecordedDisconnect[];
  /** Chat calls under way now: received, and neither answered in full nor left by their client. */
  readonly openChats: number;
  /** Queues replies for a model, used in order (a reply with `match` only for requests it accepts). */
  script(model: string, ...replies: Reply[]): void;
  /** The reply for a model when its queue has nothing for a request. */
  setDefault(model: string, reply: Reply): void;
  /**
   * Serves a file at `path` (e.g. `/models/X/resolve/main/tensor-cache.json`) to GET and HEAD, with
   * CORS headers like every other route; a later call for the same path replaces it.
   */
  serveFile(path: string, file: StaticFile | string | Uint8Array): void;
  /**
   * The gate named `name`, made on first use: replies scripted with `gate: name` hold there until
   * the test calls `release()`. A reply naming a gate the test never made is refused (a 500).
   */
  gate(name: string): Gate;
  /** Forgets queued replies, defaults, served files and recorded requests; releases every gate. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts a local OpenAI-compatible chat server for tests: scripted replies per model, SSE streaming,
 * injected latency, error statuses and dropped connections. Timing comes only from scripted delays.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const cors = options.cors ?? true;
  const queues = new Map<string, Reply[]>();
  const defaults = new Map<string, Reply>();
  const known = new Set<string>();
  const requests: RecordedRequest[] = [];
  const disconnects: RecordedDisconnect[] = [];
  let openChats = 0;
  const files = new Map<string, StaticFile>();
  const gates = new Map<string, GateInternal>();
  let created = 1_700_000_000;

  const corsHeaders = (req: IncomingMessage) => (cors ? corsHeadersFor(req) : {});

  function sendJson(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    payload: unknown,
    extra: Record<string, string> = {},
  ) {
    res.writeHead(status, { "Content-Type": "application/json", ...corsHeaders(req), ...extra });
    res.end(JSON.stringify(payload));
  }

  function sendError(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    extra: Record<string, string> = {},
  ) {
    sendJson(req, res, status, { error: { message, ...errorKind(status) } }, extra);
  }

  /** The reply for this request: the first acceptable queued one, else the default. */
  function takeReply(body: ChatBody): Reply | undefined {
    const queue = queues.get(body.model) ?? [];
    const index = queue.findIndex((reply) => accepts(reply, body));
    if (index >= 0) return queue.splice(index, 1)[0];
    return defaults.get(body.model);
  }

  async function chat(req: IncomingMessage, res: ServerResponse, raw: unknown) {
    const parsed = ChatBodySchema.safeParse(raw);
    if (!parsed.success) return sendError(req, res, 400, "The request body is not a chat request.");
    const body = parsed.data;
    const key = options.keys?.[body.model];
    if (key !== undefined && req.headers.authorization !== `Bearer ${key}`) {
      return sendError(req, res, 401, errorMessageFor(401));
    }
    const reply = takeReply(body);
    if (reply === undefined) {
      return sendError(req, res, 404, `The model \`${body.model}\` does not exist.`);
    }
    const spec = resolveReply(reply, body);
    // A client that leaves before the answer is complete is recorded (a drop by the script is not).
    let dropping = false;
    openChats++;
    res.on("close", () => {
      openChats--;
      if (!res.writableEnded && !dropping)
        disconnects.push({
          model: body.model,
          phase: res.headersSent ? "streaming" : "waiting",
          time: Date.now(),
        });
    });
    if (spec.latencyMs) await waitWhileOpen(res, spec.latencyMs);
    const gate = spec.gate === undefined ? undefined : gates.get(spec.gate);
    if (spec.gate !== undefined && !gate)
      return sendError(req, res, 500, `Test script bug: no gate named ${spec.gate}.`);
    if (gate && (!spec.gateAfter || !body.stream)) await gate.pass(res);
    if (res.destroyed) return;
    dropping = spec.drop !== undefined;
    if (spec.drop === "before") return void req.socket.destroy();
    if (spec.status !== undefined && spec.status >= 400) {
      const extra: Record<string, string> = spec.retryAfter
        ? { "Retry-After": spec.retryAfter }
        : {};
      return sendError(
        req,
        res,
        spec.status,
        spec.errorMessage ?? errorMessageFor(spec.status),
        extra,
      );
    }
    const id = `chatcmpl-test-${requests.length}`;
    created += 1;
    if (body.stream) await stream(req, res, body, spec, id, spec.gateAfter ? gate : undefined);
    else complete(req, res, body, spec, id);
  }

  function complete(
    req: IncomingMessage,
    res: ServerResponse,
    body: ChatBody,
    spec: ReplySpec,
    id: string,
  ) {
    const text = chunksOf(spec).join("");
    const usage = usageOf(spec, body, text);
    const payload = JSON.stringify({
      id,
      object: "chat.completion",
      created,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      ...(usage
        ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }
        : {}),
    });
    res.writeHead(200, { "Content-Type": "application/json", ...corsHeaders(req) });
    if (spec.drop === "mid") {
      // Destroy only once the first half has been flushed, so the client sees a truncated body.
      return void res.write(payload.slice(0, Math.floor(payload.length / 2)), () =>
        req.socket.destroy(),
      );
    }
    res.end(payload);
  }

  async function stream(
    req: IncomingMessage,
    res: ServerResponse,
    body: ChatBody,
    spec: ReplySpec,
    id: string,
    gate?: GateInternal,
  ) {
    let closed = false;
    res.on("close", () => (closed = true));
    const event = (choices: unknown[], usage?: unknown) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices, ...(usage ? { usage } : {}) })}\n\n`;
    const delta = (content: Record<string, string>, finish: string | null = null) =>
      event([{ index: 0, delta: content, finish_reason: finish }]);

    // Read before any header goes out, so a bad fixture name is a 500, not a cut stream.
    const raw = spec.fixture !== undefined ? loadFixture(spec.fixture) : spec.sse;
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      Connection: "keep-alive",
      ...corsHeaders(req),
    });
    if (raw !== undefined) {
      for (const [i, frame] of framesOf(raw).entries()) {
        if (i > 0 && spec.chunkDelayMs) await wait(spec.chunkDelayMs);
        if (closed) return;
        await writeFlushed(res, frame);
      }
      return void res.end();
    }
    res.write(delta({ role: "assistant", content: "" }));
    for (const [i, piece] of (spec.reasoning ?? []).entries()) {
      if (i > 0 && spec.chunkDelayMs) await wait(spec.chunkDelayMs);
      if (closed) return;
      await writeFlushed(res, delta({ [spec.reasoningField ?? "reasoning_content"]: piece }));
    }
    const chunks = chunksOf(spec);
    // A mid-stream drop sends about half of the chunks (at least one) and then cuts the socket.
    const dropAfter = spec.drop === "mid" ? Math.max(1, Math.floor(chunks.length / 2)) : Infinity;
    for (const [i, chunk] of chunks.entries()) {
      if (i >= dropAfter) break;
      if (i > 0 && spec.chunkDelayMs) await wait(spec.chunkDelayMs);
      if (gate && i === spec.gateAfter) await gate.pass(res);
      if (closed) return;
      // Waiting for the flush keeps chunks apart on the wire and lets a drop follow what was sent.
      await writeFlushed(res, delta({ content: chunk }));
    }
    if (spec.drop === "mid") return void req.socket.destroy();
    // A gate past the last chunk holds the stream before its finish.
    if (gate && (spec.gateAfter ?? 0) >= chunks.length) await gate.pass(res);
    if (closed) return;
    if (!spec.omitFinish) res.write(delta({}, "stop"));
    const usage = usageOf(spec, body, chunks.join(""));
    if (usage && body.stream_options?.include_usage) {
      const total = usage.prompt_tokens + usage.completion_tokens;
      res.write(event([], { ...usage, total_tokens: total }));
    }
    res.end(spec.omitDone ? undefined : "data: [DONE]\n\n");
  }

  function modelList() {
    const ids = [...new Set([...known, ...(options.models ?? [])])];
    return {
      object: "list",
      data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "test-server" })),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const text = await readBody(req);
    const body = parseJson(text);
    const headers = flatHeaders(req);
    requests.push({ method: req.method ?? "GET", path, headers, body, time: Date.now() });
    if (req.method === "OPTIONS") {
      res.writeHead(204, corsHeaders(req));
      return void res.end();
    }
    if (req.method === "GET" && path === "/health") {
      res.writeHead(200, { "Content-Type": "text/plain", ...corsHeaders(req) });
      return void res.end("ok");
    }
    if (req.method === "GET" && path === "/v1/models") return sendJson(req, res, 200, modelList());
    const file = files.get(path);
    if (file && (req.method === "GET" || req.method === "HEAD"))
      return sendFile(req, res, path, file, corsHeaders(req));
    if (req.method === "POST" && path === "/v1/chat/completions") {
      if (body === undefined) return sendError(req, res, 400, "The request body is not JSON.");
      return chat(req, res, body);
    }
    sendError(req, res, 404, `No route for ${req.method ?? "?"} ${path}.`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      if (!res.headersSent) sendError(req, res, 500, `Test server bug: ${message}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    disconnects,
    get openChats() {
      return openChats;
    },
    script(model, ...replies) {
      known.add(model);
      queues.set(model, [...(queues.get(model) ?? []), ...replies]);
    },
    setDefault(model, reply) {
      known.add(model);
      defaults.set(model, reply);
    },
    serveFile(path, file) {
      const normal = path.startsWith("/") ? path : `/${path}`;
      files.set(
        normal,
        typeof file === "string" || file instanceof Uint8Array ? { body: file } : file,
      );
    },
    gate(name) {
      let g = gates.get(name);
      if (!g) gates.set(name, (g = createGate()));
      return g;
    },
    reset() {
      for (const g of gates.values()) g.release();
      gates.clear();
      files.clear();
      queues.clear();
      defaults.clear();
      known.clear();
      requests.length = 0;
      disconnects.length = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      });
    },
  };
}
