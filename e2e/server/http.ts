import type { IncomingMessage, ServerResponse } from "node:http";

/** Resolves after `ms`; only ever used for scripted delays. */
export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves after `ms`, or as soon as the client goes away, so no timer outlives its request. */
export function waitWhileOpen(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once("close", done);
  });
}

/** The whole request body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

/** Parsed JSON, or undefined for an empty or malformed body. */
export function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** Request headers as one string each, names in lower case. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Permissive CORS headers, as a browser-facing provider would send. */
export function corsHeadersFor(req: IncomingMessage): Record<string, string> {
  // `Allow-Headers: *` does not cover Authorization, so echo what the preflight asks for.
  const asked = req.headers["access-control-request-headers"];
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": asked ?? "Authorization, Content-Type",
    "Access-Control-Expose-Headers": "Retry-After, Retry-After-Ms, X-Request-Id",
    "Access-Control-Max-Age": "600",
  };
}

/** A file the test server serves as is (GET and HEAD), e.g. one file of a WebLLM model record. */
export interface StaticFile {
  body: string | Uint8Array;
  /** Defaults from the file name: JSON, WebAssembly, else application/octet-stream. */
  contentType?: string;
  /** Delay before the first byte (headers included). */
  latencyMs?: number;
  /** Answer with this error status (and a short text body) instead of the file. */
  status?: number;
}

/** The Content-Type for a served file name. */
export function contentTypeOf(path: string): string {
  if (path.endsWith(".json")) return "application/json";
  if (path.endsWith(".wasm")) return "application/wasm";
  if (path.endsWith(".txt")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

/** Answers with a served file (no body for HEAD), or its scripted error status, after its latency. */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  file: StaticFile,
  headers: Record<string, string>,
): Promise<void> {
  if (file.latencyMs) await waitWhileOpen(res, file.latencyMs);
  if (res.destroyed) return;
  if (file.status !== undefined && file.status >= 400) {
    res.writeHead(file.status, { "Content-Type": "text/plain", ...headers });
    return void res.end(`Status ${file.status} for ${path}.`);
  }
  const body = typeof file.body === "string" ? Buffer.from(file.body, "utf8") : file.body;
  res.writeHead(200, {
    "Content-Type": file.contentType ?? contentTypeOf(path),
    "Content-Length": String(body.byteLength),
    ...headers,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
