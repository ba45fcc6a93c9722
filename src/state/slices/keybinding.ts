// Which key goes to which endpoint: secrets bound to their origin, and each key's status.
import { isPlainHeader } from "../../engine/pool/headers.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import type { StudioState } from "./studio-state.ts";

/**
 * Keys are bound to the origin they were entered for. A secret is held by id: a worker id, the
 * Conductor's id, or a worker's custom header (`headerSecretId`). It is sent only while the owner's
 * base URL still has the origin it was entered for; when the origin changes by any path (a URL
 * edit, a provider switch, an imported pool or run reusing the id) it stays held but unsent until
 * the user enters a new one or confirms that it applies to the new origin.
 */

/** The Conductor's entry in the key ring. */
export const CONDUCTOR_KEY_ID = "conductor";

/** The Hugging Face token's entry: bound to the Hub's origin, sent to the Hub's APIs only. */
export const HF_TOKEN_ID = "huggingface-hub";

/** Where the Hub is for the token's binding (tests point it at a local server). */
export const hubOrigin = { url: "https://huggingface.co" };

/** Separates a worker id from a header name in a header secret's id. */
const HEADER_SEP = "\u001fheader:";

/** The key-ring id of a worker's custom header value. */
export function headerSecretId(workerId: string, header: string): string {
  return `${workerId}${HEADER_SEP}${header.toLowerCase()}`;
}

/** The worker id a secret belongs to ("conductor" for the Conductor's key). */
export function ownerOfSecret(id: string): string {
  const at = id.indexOf(HEADER_SEP);
  return at < 0 ? id : id.slice(0, at);
}

/** The origin of an http(s) base URL, or null when it is none (blank, not a URL, another scheme). */
export function originOf(baseURL: string): string | null {
  try {
    const url = new URL(baseURL);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

type KeyView = Pick<StudioState, "keys" | "keyOrigins" | "pool" | "conductor">;

/** Where a secret's owner is called now: the origin of its current base URL. */
export function currentOrigin(
  s: Pick<StudioState, "pool" | "conductor">,
  id: string,
): string | null {
  const owner = ownerOfSecret(id);
  if (owner === CONDUCTOR_KEY_ID) return originOf(s.conductor.baseURL);
  if (owner === HF_TOKEN_ID) return originOf(hubOrigin.url);
  const worker = s.pool.find((w) => w.id === owner);
  return worker ? originOf(worker.baseURL) : null;
}

/** A held secret's state: none held, bound to where its owner points, or entered for elsewhere. */
export type KeyStatus =
  | { state: "none" }
  | { state: "bound"; origin: string }
  | { state: "moved"; from: string | null; to: string | null };

/** The status of the secret `id` when its owner points at origin `to` (no pool lookup). */
export function keyStatusAt(
  s: Pick<StudioState, "keys" | "keyOrigins">,
  id: string,
  to: string | null,
): KeyStatus {
  if (!s.keys[id]) return { state: "none" };
  const from = s.keyOrigins[id] || null;
  return from !== null && from === to
    ? { state: "bound", origin: to }
    : { state: "moved", from, to };
}

/** Whether the secret `id` may be sent, and if not, why. */
export function keyStatus(s: KeyView, id: string): KeyStatus {
  return keyStatusAt(s, id, currentOrigin(s, id));
}

/** The secret `id` if it may be sent to where its owner points now; otherwise undefined. */
export function boundKey(s: KeyView, id: string): string | undefined {
  return keyStatus(s, id).state === "bound" ? s.keys[id] : undefined;
}

/** The headers a call to `worker` carries: plain values, and secret ones bound to its origin. */
export function headersToSend(
  s: KeyView,
  worker: Pick<Worker, "id" | "baseURL" | "headers" | "plainHeaders">,
): Record<string, string> | undefined {
  if (!worker.headers) return undefined;
  const to = originOf(worker.baseURL);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(worker.headers)) {
    if (isPlainHeader(worker, name)) out[name] = value;
    else {
      const id = headerSecretId(worker.id, name);
      if (keyStatusAt(s, id, to).state === "bound") out[name] = s.keys[id] ?? "";
    }
  }
  return out;
}

const originCounts = new WeakMap<readonly Worker[], Map<string, number>>();

/** How many workers of the pool point at each origin; computed once per pool (linear). */
export function workersByOrigin(pool: readonly Worker[]): Map<string, number> {
  let counts = originCounts.get(pool);
  if (!counts) {
    counts = new Map();
    for (const w of pool) {
      const o = originOf(w.baseURL);
      if (o) counts.set(o, (counts.get(o) ?? 0) + 1);
    }
    originCounts.set(pool, counts);
  }
  return counts;
}

/** What a call to `worker` may carry: its key and headers, each only if bound to its origin. */
export function credentialsFor(
  s: KeyView,
  worker: Pick<Worker, "id" | "baseURL" | "headers" | "plainHeaders">,
): { apiKey?: string; headers?: Record<string, string> } {
  // Checked against this worker's own base URL, never another owner's: a worker whose id is
  // "conductor", or names another worker's header, gets nothing entered for elsewhere.
  const apiKey =
    keyStatusAt(s, worker.id, originOf(worker.baseURL)).state === "bound"
      ? s.keys[worker.id]
      : undefined;
  const headers = headersToSend(s, worker);
  return { ...(apiKey ? { apiKey } : {}), ...(headers ? { headers } : {}) };
}

/**
 * Why the owner `ownerId` must not be called yet: a secret of it (its key or a header) was entered
 * for another origin. Null when nothing is held for elsewhere.
 */
export function movedSecretMessage(
  s: KeyView,
  ownerId: string,
  label: string,
  to: string | null = currentOrigin(s, ownerId),
): string | null {
  for (const id of Object.keys(s.keys)) {
    if (ownerOfSecret(id) !== ownerId) continue;
    const st = keyStatusAt(s, id, to);
    if (st.state !== "moved") continue;
    const what = id === ownerId ? "key" : "header value";
    return (
      `${label}'s ${what} was entered for ${st.from ?? "another endpoint"} and is not sent to ` +
      `${st.to ?? "its new endpoint"}. Enter one for the new endpoint, or confirm that the same one applies (Settings → Workers).`
    );
  }
  return null;
}
