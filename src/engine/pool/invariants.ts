import type { Worker } from "../schema/worker.ts";

/**
 * The most workers a pool may hold. The paper's pool has seven; a few dozen is a large one. Files
 * can carry far more (one shared file could hold 10,000), which would make every screen that lists
 * the pool slow, so a bigger pool is refused on import with this number in the message.
 */
export const MAX_POOL_WORKERS = 200;

/** The id the key ring keeps the Conductor's own key under; no worker may take it. */
const RESERVED_ID = "conductor";
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The longest piece of a file that a message quotes. */
const QUOTE_CHARS = 40;

/** A piece of user data short enough to quote in a message, JSON-quoted. */
export function quote(text: string): string {
  const piece = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
  return JSON.stringify(piece);
}

/** Whether a base URL is usable: blank (not set yet) or an http(s) URL. */
export function isUsableBaseURL(baseURL: string): boolean {
  if (baseURL === "") return true;
  try {
    const url = new URL(baseURL);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * What makes a pool unusable, after its schema: too many workers, a blank or duplicate id, a base
 * URL that is not http(s). The first problem as a message, or null when there is none.
 */
export function poolProblem(workers: readonly Worker[]): string | null {
  if (workers.length > MAX_POOL_WORKERS)
    return `the pool has ${workers.length} workers; the most this app opens is ${MAX_POOL_WORKERS}.`;
  const ids = new Set<string>();
  for (const [i, w] of workers.entries()) {
    if (w.id.trim() === "") return `worker ${i} has a blank id.`;
    // "conductor" names the Conductor's own key; control characters could mimic other key ids.
    if (w.id === RESERVED_ID || CONTROL.test(w.id))
      return `worker ${i} has the id ${quote(w.id)}, which is reserved or holds control characters.`;
    if (ids.has(w.id)) return `two workers share the id ${quote(w.id)}.`;
    ids.add(w.id);
    if (!isUsableBaseURL(w.baseURL))
      return `worker ${i} (${quote(w.name)}) has a base URL that is not http(s): ${quote(w.baseURL)}.`;
  }
  return null;
}
