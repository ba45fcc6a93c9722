import type { IncomingMessage } from "node:http";

/** Resolves after `ms`; only ever used for scripted delays. */
export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
