// The HTTP client of the CLI's backends: `fetch` for the calls they make (a POST with a JSON body
// to an http(s) endpoint) over node:http, with everything else handed to the global fetch. Node's
// own fetch spent more CPU on a streamed chat call than the rest of the service did (request and
// response web streams, header lists, the body copied through an async iterator); the reward
// service makes hundreds of such calls a second.
import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** Statuses whose response has no body (a Response with one cannot be made). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

/** fetch's own failures say "fetch failed" and keep the reason in `cause`: errors read alike. */
const fetchFailed = (cause: unknown) => new TypeError("fetch failed", { cause });
/** A body cut part way: fetch's "terminated", the socket's error as its cause. */
const terminated = (cause: unknown) => new TypeError("terminated", { cause });

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on("error", (e: unknown) => decoder.destroy(e instanceof Error ? e : undefined));
  return res.pipe(decoder);
}

function responseOf(res: IncomingMessage): Response {
  // Name-value pairs, appended in order by the Response itself: one header list, not two.
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
  const status = res.statusCode ?? 502;
  if (NULL_BODY.has(status)) {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage, headers });
  }
  const source = decoded(res);
  // Set once the body has ended, failed or been cancelled: later socket events change nothing.
  let settled = false;
  // Pulled chunk by chunk: nothing is read ahead of the consumer, and a cancel closes the socket.
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        controller.error(terminated(e));
      };
      source.on("data", (chunk: Buffer) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) source.pause();
      });
      source.once("end", () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      source.once("error", fail);
      // A socket closed before the end of the body: undici's "terminated" as well.
      res.once("close", () => {
        if (!res.complete) fail(new Error("other side closed"));
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      settled = true;
      res.destroy();
    },
  });
  return new Response(body, { status, statusText: res.statusMessage, headers });
}

/**
 * A `fetch` for the CLI's chat calls. It takes the common case (http or https, a string body or
 * none, no redirect) itself; anything else, and any redirect, goes to the global fetch unchanged,
 * so the result is what fetch would have given.
 */
export const nodeFetch: typeof fetch = (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body ?? undefined;
  const simple =
    url !== undefined &&
    /^https?:/i.test(url) &&
    (body === undefined || typeof body === "string") &&
    (init?.redirect ?? "follow") === "follow";
  if (!simple) return globalThis.fetch(input, init);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  const target = new URL(url);
  const headers: Record<string, string> = {};
  // The client hands over a Headers already: read it as it is rather than copy it first.
  const given = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
  given.forEach((value, name) => (headers[name] = value));
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  const method = (init?.method ?? "GET").toUpperCase();
  return new Promise<Response>((resolve, reject) => {
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(target, { method, headers, ...(signal ? { signal } : {}) }, (res) => {
      if (REDIRECT.has(res.statusCode ?? 0) && res.headers.location) {
        res.resume();
        resolve(globalThis.fetch(input, init));
        return;
      }
      resolve(responseOf(res));
    });
    req.once("error", (e: unknown) => {
      if (signal?.aborted) reject(signal.reason as Error);
      else reject(fetchFailed(e));
    });
    req.end(body);
  });
};
