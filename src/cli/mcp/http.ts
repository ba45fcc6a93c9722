// The MCP endpoint over streamable HTTP (`serve --mcp`, at /mcp): the SDK's web-standard handler
// behind serve's guard and key (checked by serve's router before this runs), on node:http.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpHandler } from "@modelcontextprotocol/server";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import { readBody } from "../kit/http.ts";
import type { McpDeps } from "./tools.ts";
import { createMcpServer } from "./tools.ts";

export interface McpEndpoint {
  /** Answers one request to /mcp. */
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * The endpoint: stateless (a fresh server per request, as the 2026-07-28 spec has it), and 2025-era
 * clients served statelessly from the same factory (the SDK's `legacy: "stateless"`).
 */
export function createMcpEndpoint(deps: McpDeps, maxBodyBytes: number): McpEndpoint {
  const handler: McpHttpHandler = createMcpHandler(() => createMcpServer(deps), {
    legacy: "stateless",
    maxRequestBodySize: maxBodyBytes,
    onerror: (e) => deps.log(`mcp: ${e.message}`),
  });
  return {
    close: () => handler.close(),
    async handle(req, res) {
      const gone = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      let body: string | undefined;
      if (req.method === "POST") {
        const read = await readBody(req, maxBodyBytes);
        if (!read.ok) {
          if (read.tooLarge) res.writeHead(413, { Connection: "close" }).end();
          return;
        }
        body = read.text;
      } else req.resume();
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
        method: req.method,
        headers,
        body,
        signal: gone.signal,
      });
      const response = await handler.fetch(request);
      await writeResponse(response, res);
    },
  };
}

/** Writes a web Response to node's, streaming its body (SSE) chunk by chunk as it comes. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      res.write(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    res.end();
  }
}
