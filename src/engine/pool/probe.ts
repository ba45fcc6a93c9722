import { z } from "zod";
import { scrubKey } from "../llm/openai-errors.ts";

/**
 * Endpoint probes for the pool editor: list the models an endpoint offers, and send the smallest
 * possible chat request to see whether a worker can be called from here. Both use plain fetch, send
 * the key only to the worker's own base URL, and report outcomes as values (never throw).
 */

export interface EndpointTarget {
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer ...` to `baseURL` only. */
  apiKey?: string;
  headers?: Record<string, string>;
}

export type ProbeOutcome =
  | { kind: "ok"; latencyMs: number; status: number }
  | { kind: "blocked_or_unreachable"; detail: string }
  | { kind: "auth"; status: number; detail: string }
  | { kind: "not_found"; status: number; detail: string }
  | { kind: "rate_limited"; status: number; detail: string }
  | { kind: "server"; status: number; detail: string }
  | { kind: "rejected"; status: number; detail: string }
  | { kind: "timeout" }
  | { kind: "bad_url"; detail: string };

/** What each outcome means, in plain words. */
export const PROBE_MESSAGES: Readonly<Record<ProbeOutcome["kind"], string>> = {
  ok: "Connected.",
  blocked_or_unreachable:
    "Blocked by the browser (CORS) or unreachable. A browser reports both the same way: check the " +
    "base URL and that the server is running, then whether it allows calls from this page.",
  auth: "The endpoint refused the key (401/403). Check this worker's API key.",
  not_found: "The endpoint does not know this model or path (404). Check the model and base URL.",
  rate_limited: "Rate limited (429): the endpoint is up and the key works, but it asks to wait.",
  server: "The endpoint had a server error (5xx). Try again later.",
  rejected: "The endpoint answered but rejected the request.",
  timeout: "No answer within the time limit.",
  bad_url: "The base URL is not a valid http(s) URL.",
};

/** One line for the UI: the outcome's meaning, its status and, for errors, the server's words. */
export function describeOutcome(outcome: ProbeOutcome): string {
  const base = PROBE_MESSAGES[outcome.kind];
  switch (outcome.kind) {
    case "ok":
      return `${base} ${outcome.latencyMs} ms.`;
    case "timeout":
      return base;
    case "bad_url":
    case "blocked_or_unreachable":
      return outcome.detail ? `${base} (${outcome.detail})` : base;
    case "auth":
    case "not_found":
    case "rate_limited":
    case "server":
    case "rejected":
      return `${base} HTTP ${outcome.status}${outcome.detail ? `: ${outcome.detail}` : ""}`;
  }
}

function endpointURL(baseURL: string, path: string): URL | null {
  try {
    const url = new URL(`${baseURL.replace(/\/+$/, "")}/${path}`);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

function requestHeaders(target: EndpointTarget, json: boolean): Record<string, string> {
  return {
    ...(json ? { "Content-Type": "application/json" } : {}),
    ...(target.apiKey ? { Authorization: `Bearer ${target.apiKey}` } : {}),
    ...target.headers,
  };
}

const ErrorBodySchema = z.object({
  error: z.union([z.string(), z.object({ message: z.string() })]),
});

/** The server's own error message, short and with the key scrubbed. */
async function errorDetail(response: Response, apiKey: string | undefined): Promise<string> {
  let text = "";
  try {
    text = await response.text();
  } catch {
    return "";
  }
  let message = text;
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success)
      message =
        typeof parsed.data.error === "string" ? parsed.data.error : parsed.data.error.message;
  } catch {
    // Not JSON: keep the text.
  }
  message = scrubKey(message.trim(), apiKey);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

async function classify(
  response: Response,
  latencyMs: number,
  apiKey: string | undefined,
): Promise<ProbeOutcome> {
  const status = response.status;
  if (response.ok) return { kind: "ok", latencyMs, status };
  const detail = await errorDetail(response, apiKey);
  if (status === 401 || status === 403) return { kind: "auth", status, detail };
  if (status === 404) return { kind: "not_found", status, detail };
  if (status === 429) return { kind: "rate_limited", status, detail };
  if (status >= 500) return { kind: "server", status, detail };
  return { kind: "rejected", status, detail };
}

interface ProbeOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
  now?: () => number;
}

/** Runs one request with a timeout; a thrown fetch (TypeError in browsers) is blocked-or-unreachable. */
async function send(
  url: URL,
  init: RequestInit,
  target: EndpointTarget,
  options: ProbeOptions,
): Promise<{ response: Response; latencyMs: number } | ProbeOutcome> {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const now = options.now ?? (() => performance.now());
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 20_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const started = now();
  try {
    const response = await fetchImpl(url, { ...init, signal });
    return { response, latencyMs: Math.round(now() - started) };
  } catch (e: unknown) {
    if (timeout.aborted) return { kind: "timeout" };
    const detail = e instanceof Error ? scrubKey(e.message, target.apiKey) : "";
    return { kind: "blocked_or_unreachable", detail };
  }
}

/**
 * Sends the smallest chat request (one short user message, one output token, no streaming) and
 * classifies what happened. Latency is measured to the response headers.
 */
export async function testConnection(
  target: EndpointTarget,
  options: ProbeOptions = {},
): Promise<ProbeOutcome> {
  const url = endpointURL(target.baseURL, "chat/completions");
  if (!url) return { kind: "bad_url", detail: target.baseURL };
  // OpenAI's own API refuses max_tokens for its reasoning models.
  const limitField = url.host === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  const body = JSON.stringify({
    model: target.model,
    messages: [{ role: "user", content: "Hi" }],
    [limitField]: 1,
    stream: false,
  });
  const sent = await send(
    url,
    { method: "POST", headers: requestHeaders(target, true), body },
    target,
    options,
  );
  if ("kind" in sent) return sent;
  const outcome = await classify(sent.response, sent.latencyMs, target.apiKey);
  if (outcome.kind === "ok") await sent.response.body?.cancel().catch(() => undefined);
  return outcome;
}

const ModelListSchema = z.object({
  data: z.array(z.looseObject({ id: z.string().min(1) })),
});

export type ModelListResult =
  { ok: true; models: string[] } | { ok: false; outcome: ProbeOutcome; message: string };

/** GET {baseURL}/models, read as OpenAI's list shape; model ids sorted and de-duplicated. */
export async function fetchModels(
  target: Omit<EndpointTarget, "model">,
  options: ProbeOptions = {},
): Promise<ModelListResult> {
  const url = endpointURL(target.baseURL, "models");
  const fail = (outcome: ProbeOutcome, message = describeOutcome(outcome)) => ({
    ok: false as const,
    outcome,
    message,
  });
  if (!url) return fail({ kind: "bad_url", detail: target.baseURL });
  const full = { ...target, model: "" };
  const sent = await send(
    url,
    { method: "GET", headers: requestHeaders(full, false) },
    full,
    options,
  );
  if ("kind" in sent) return fail(sent);
  const outcome = await classify(sent.response, sent.latencyMs, target.apiKey);
  if (outcome.kind !== "ok") return fail(outcome);
  let json: unknown;
  try {
    json = await sent.response.json();
  } catch {
    return fail(outcome, "The endpoint's model list is not JSON.");
  }
  const parsed = ModelListSchema.safeParse(json);
  if (!parsed.success)
    return fail(
      outcome,
      'The endpoint\'s model list is not in the OpenAI shape ({"data": [{"id"}]}).',
    );
  return { ok: true, models: [...new Set(parsed.data.data.map((m) => m.id))].sort() };
}
