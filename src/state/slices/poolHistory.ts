// The pool's undo history, and the secrets that leave or come back with each step.
import type { Worker } from "../../engine/schema/worker.ts";
import { ownerOfSecret } from "./keybinding.ts";
import type { HeldSecret, PoolEntry } from "./studio-state.ts";
export type { HeldSecret, PoolEntry } from "./studio-state.ts";

/**
 * Undo and redo of pool edits. Every change to the pool (add, remove, move, duplicate, a field,
 * an import, the paper pool) keeps the pool it replaced; typing into one field of one worker is
 * one step. Steps refer to workers by id, so undoing a removal reconnects every step that used the
 * worker, and the worker's key and secret header values come back with it.
 */

export interface PoolHistory {
  poolUndo: PoolEntry[];
  poolRedo: PoolEntry[];
}

/** A worker's fields as the Settings form names them, for undo labels ("edit base URL of …"). */
const FIELD_WORDS: Record<keyof Worker, string> = {
  id: "id",
  name: "name",
  kind: "kind",
  provider: "provider",
  baseURL: "base URL",
  model: "model",
  temperature: "temperature",
  maxTokens: "max tokens",
  price: "price",
  note: "note",
  // Which headers are secret is part of editing the headers: one word for both.
  headers: "headers",
  plainHeaders: "headers",
  prefill: "prefill",
  extraBody: "extra request fields",
};

/** The undo label of an edit of `fields` of a worker: "edit headers of “GPT-4o”". */
export function fieldEditLabel(fields: readonly string[], workerName: string): string {
  const words = [
    ...new Set(fields.map((f) => (f in FIELD_WORDS ? FIELD_WORDS[f as keyof Worker] : f))),
  ];
  const said =
    words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "");
  return `edit ${said} of “${workerName}”`;
}

/** How many pool edits can be undone. */
export const POOL_UNDO_LIMIT = 50;

interface Secrets {
  keys: Record<string, string>;
  keyOrigins: Record<string, string>;
}

/** The secrets of workers in `from` that `to` lacks: what leaving `from` for `to` would forget. */
export function secretsLeaving(s: Secrets, from: readonly Worker[], to: readonly Worker[]) {
  const staying = new Set(to.map((w) => w.id));
  const leaving = new Set(from.map((w) => w.id).filter((id) => !staying.has(id)));
  const out: Record<string, HeldSecret> = {};
  for (const [id, value] of Object.entries(s.keys))
    if (leaving.has(ownerOfSecret(id))) out[id] = [value, s.keyOrigins[id] ?? ""];
  return out;
}

/** The history after an edit from `before` to `after`, or unchanged when the pool did not change. */
export function recordEdit(
  h: PoolHistory,
  s: Secrets,
  before: Worker[],
  after: Worker[],
  label: string,
  coalesce?: string,
): PoolHistory {
  const same = { poolUndo: h.poolUndo, poolRedo: h.poolRedo };
  if (before === after) return same;
  const top = h.poolUndo.at(-1);
  if (coalesce && top?.coalesce === coalesce && h.poolRedo.length === 0) return same;
  const entry: PoolEntry = {
    label,
    pool: before,
    secrets: secretsLeaving(s, before, after),
    ...(coalesce ? { coalesce } : {}),
  };
  return { poolUndo: [...h.poolUndo, entry].slice(-POOL_UNDO_LIMIT), poolRedo: [] };
}

/** The keys after moving from `current` to `next` pool: secrets of workers that come back return. */
export function secretsAfter(
  s: Secrets,
  entry: PoolEntry,
  current: readonly Worker[],
): { keys: Record<string, string>; keyOrigins: Record<string, string> } {
  const keys = { ...s.keys };
  const keyOrigins = { ...s.keyOrigins };
  const gone = secretsLeaving(s, current, entry.pool);
  for (const id of Object.keys(gone)) {
    delete keys[id];
    delete keyOrigins[id];
  }
  for (const [id, [value, origin]] of Object.entries(entry.secrets)) {
    keys[id] = value;
    keyOrigins[id] = origin;
  }
  return { keys, keyOrigins };
}

/**
 * One step of undo (`from` = poolUndo) or redo (`from` = poolRedo): the pool and keys to restore
 * and the history after it, or null when there is nothing to step over.
 */
export function stepHistory(
  h: PoolHistory,
  s: Secrets & { pool: Worker[] },
  direction: "undo" | "redo",
):
  | (PoolHistory & {
      pool: Worker[];
      keys: Record<string, string>;
      keyOrigins: Record<string, string>;
    })
  | null {
  const from = direction === "undo" ? h.poolUndo : h.poolRedo;
  const entry = from.at(-1);
  if (!entry) return null;
  const back: PoolEntry = {
    label: entry.label,
    pool: s.pool,
    secrets: secretsLeaving(s, s.pool, entry.pool),
  };
  const rest = from.slice(0, -1);
  const history =
    direction === "undo"
      ? { poolUndo: rest, poolRedo: [...h.poolRedo, back] }
      : { poolUndo: [...h.poolUndo, back], poolRedo: rest };
  return { ...history, pool: entry.pool, ...secretsAfter(s, entry, s.pool) };
}
