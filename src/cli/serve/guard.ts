// One guard for every local HTTP endpoint the CLI starts (`serve`, `reward`, the MCP endpoint):
// no web page the user visits may use them. A page can send a "simple" cross-site POST (text/plain
// or a form, no preflight) and, after rebinding a DNS name to 127.0.0.1, even read the answer; the
// server holds the user's worker keys, so either would spend them. Three checks, before any work:
// the Host names this machine (rebinding), an Origin (or Sec-Fetch-Site) is one --cors allows, and
// a POST body is declared JSON, which no page can send cross-site without a preflight.
import type { IncomingMessage } from "node:http";
import type { ApiError } from "./error-replies.ts";
import { apiError } from "./error-replies.ts";
import { isLoopback } from "./options.ts";

export interface GuardSettings {
  /** The address the server binds (`--host`): a loopback one limits `Host` to loopback names. */
  bind: string;
  /** `--allowed-host NAME`: further names a `Host` header may carry (a proxy's, a LAN name). */
  allowedHosts: string[];
  /** `--cors ORIGIN`: browser origins allowed to call; "*" allows any. */
  cors: string[];
}

/** The host name of a `Host` header, lower-case, without port, brackets or a trailing dot. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(1, h.indexOf("]")) : h.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/**
 * Whether `Host` may be answered. On a loopback bind, only loopback names (any port, so an SSH
 * tunnel's still works) and `--allowed-host`; off loopback a key is mandatory, so any name unless
 * `--allowed-host` narrows it to those, the bind address and loopback.
 */
function hostAllowed(header: string | undefined, g: GuardSettings): boolean {
  if (header === undefined || header.trim() === "") return false;
  const name = hostName(header);
  if (isLoopback(name)) return true;
  if (g.allowedHosts.some((a) => hostName(a) === name)) return true;
  if (isLoopback(g.bind)) return false;
  return g.allowedHosts.length === 0 || hostName(g.bind) === name;
}

/** True when `--cors` allows `origin` ("*" allows any, `null` included). */
function originAllowed(origin: string, cors: string[]): boolean {
  return cors.includes("*") || cors.includes(origin);
}

/**
 * The refusal for a request no local endpoint may serve, or undefined to go on. Checked before
 * routing, the key and the body, so a refused request costs nothing upstream.
 */
export function guardRequest(req: IncomingMessage, g: GuardSettings): ApiError | undefined {
  const host = req.headers.host;
  if (!hostAllowed(host, g)) {
    const name = host === undefined ? "(none)" : hostName(host);
    return apiError(
      "host_not_allowed",
      `The Host "${name}" is not a name of this server (a DNS-rebinding page sends such a Host). ` +
        `If you reach it through a proxy or by that name, start it with --allowed-host ${name}.`,
    );
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, g.cors)) {
    return apiError(
      "origin_not_allowed",
      `Requests from the web page ${origin} are refused: a page could spend your workers' keys. ` +
        `To let that page call this server, start it with --cors ${origin}.`,
    );
  }
  if (
    origin === undefined &&
    req.headers["sec-fetch-site"] === "cross-site" &&
    !g.cors.includes("*")
  ) {
    return apiError(
      "origin_not_allowed",
      "Cross-site requests from web pages are refused (Sec-Fetch-Site: cross-site without Origin).",
    );
  }
  if (req.method === "POST" || req.method === "PUT" || req.method === "PATCH") {
    const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (type !== "application/json") {
      return apiError(
        "unsupported_media_type",
        `The body must be JSON sent as Content-Type: application/json, not ` +
          `${type === "" ? "without a type" : `"${type}"`}: web pages send other types cross-site ` +
          `without asking, so they are refused (curl: add -H 'Content-Type: application/json').`,
      );
    }
  }
  return undefined;
}

/** CORS headers for an Origin that `--cors` allows, else none (the browser then blocks the call). */
export function corsHeaders(req: IncomingMessage, allowed: string[]): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || allowed.length === 0) return {};
  const any = allowed.includes("*");
  if (!any && !allowed.includes(origin)) return {};
  return {
    "Access-Control-Allow-Origin": any ? "*" : origin,
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers":
      req.headers["access-control-request-headers"] ?? "Authorization, Content-Type",
    "Access-Control-Max-Age": "600",
    Vary: "Origin",
  };
}
