// The one place the CLI builds an OpenAI-compatible backend (run, serve, mcp, reward, eval and
// eval --rescore): an endpoint of the resolved config with its key, its headers, the config's
// time-outs and the CLI's HTTP client (fetch.ts).
import { createOpenAIBackend } from "../../engine/llm/openai.ts";
import type { ChatBackend } from "../../engine/llm/types.ts";
import type { ResolvedConfig } from "../config.ts";
import { nodeFetch } from "./fetch.ts";

/**
 * A call's time limits on the command line: a stall is caught by the idle time-out between chunks,
 * so the per-attempt limit can leave room for a slow stream that keeps sending.
 */
export const CLI_TIMEOUTS = { attemptMs: 600_000, idleMs: 120_000 } as const;

/** What a backend needs to know of the endpoint it calls: the Conductor's or a worker's. */
export interface Endpoint {
  baseURL: string;
  model: string;
  headers?: Record<string, string>;
}

/**
 * The backend for `endpoint`, whose key is held under `keyId` ("conductor", or the worker's id).
 * The attempt time-out is the config's; the idle one the config's or `CLI_TIMEOUTS.idleMs`.
 */
export function backendFor(
  resolved: Pick<ResolvedConfig, "config" | "keys">,
  keyId: string,
  endpoint: Endpoint,
): ChatBackend {
  const { config, keys } = resolved;
  return createOpenAIBackend({
    baseURL: endpoint.baseURL,
    model: endpoint.model,
    apiKey: keys.get(keyId),
    headers: endpoint.headers,
    timeoutMs: config.timeoutMs,
    idleTimeoutMs: config.idleTimeoutMs ?? CLI_TIMEOUTS.idleMs,
    fetch: nodeFetch,
  });
}
