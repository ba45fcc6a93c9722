// The key ring: API keys and secret headers in memory, stored only when the user opts in.
import { z } from "zod";
import { REDACTED, isPlainHeader } from "../../engine/pool/headers.ts";
import { migrationSequence, upgrade } from "../../engine/schema/migrate.ts";
import { boundKey, headerSecretId, ownerOfSecret } from "../slices/keybinding.ts";
import type { StudioState } from "../slices/store.ts";
import { useStudio } from "../slices/store.ts";

/**
 * Where keys live in this browser, apart from the settings, and only while the user has opted in to
 * "remember keys in this browser". Without the opt-in this entry does not exist: keys stay in memory
 * and are gone when the page closes. Its presence is also what records the opt-in.
 */
export const KEYS_KEY = "conductor-studio.keys.v1";

/** Version 1 held bare keys; version 2 holds each key with the origin it was entered for. */
const StoredKeysV1Schema = z.strictObject({
  version: z.literal(1),
  keys: z.record(z.string().min(1), z.string().min(1)),
});

/**
 * The stored keys' migrations. Step 2: a version-1 key gets origin "" (loadKeys reports none), so
 * it is held but sent nowhere until the user confirms where it belongs. A version-1 entry that is not one is
 * unreadable, not half-migrated.
 */
const KEYS_MIGRATIONS = migrationSequence("remembered keys", [
  {
    id: 2,
    up: (doc) => {
      const v1 = StoredKeysV1Schema.parse(doc);
      const keys = Object.entries(v1.keys).map(([id, key]) => [id, { key, origin: "" }] as const);
      return { version: 2, keys: Object.fromEntries(keys) };
    },
  },
]);

const StoredKeysSchema = z.strictObject({
  version: z.literal(KEYS_MIGRATIONS.current),
  keys: z.record(z.string().min(1), z.strictObject({ key: z.string().min(1), origin: z.string() })),
});

type KeyStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;
type Loaded = Pick<StudioState, "keys" | "keyOrigins" | "rememberKeys">;

/**
 * What the stored entry says: the opt-in, the keys and their origins. Anything unreadable counts as
 * no opt-in. A version-1 key has no recorded origin: it is held, but sent nowhere until the user
 * confirms where it belongs.
 */
export function loadKeys(storage: Pick<Storage, "getItem">): Loaded {
  const none: Loaded = { keys: {}, keyOrigins: {}, rememberKeys: false };
  const text = storage.getItem(KEYS_KEY);
  if (!text) return none;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const migrated = upgrade(KEYS_MIGRATIONS, raw);
  const stored = migrated.ok ? StoredKeysSchema.safeParse(migrated.doc) : null;
  if (migrated.ok && stored?.success) {
    const entries = Object.entries(stored.data.keys);
    return {
      keys: Object.fromEntries(entries.map(([id, e]) => [id, e.key])),
      // A version-1 key has no origin at all (not ""): the first edit binds it (setKey).
      keyOrigins:
        migrated.migratedFrom === 1
          ? {}
          : Object.fromEntries(entries.map(([id, e]) => [id, e.origin])),
      rememberKeys: true,
    };
  }
  // Says nothing of the content: it may hold keys.
  console.warn("Conductor Studio: the remembered keys are unreadable and were ignored.");
  return none;
}

/** The stored form of the keys, each with the origin it was entered for. */
export function keysToStore(
  keys: Record<string, string>,
  origins: Record<string, string> = {},
): string {
  const entries = Object.entries(keys)
    .filter(([, v]) => v !== "")
    .map(([id, key]) => [id, { key, origin: origins[id] ?? "" }] as const);
  return JSON.stringify({ version: KEYS_MIGRATIONS.current, keys: Object.fromEntries(entries) });
}

/** Writes the keys while the opt-in is on; removes them the moment it is off. */
export function syncKeys(
  s: Pick<StudioState, "keys" | "rememberKeys"> & Partial<Pick<StudioState, "keyOrigins">>,
  storage: KeyStorage,
): void {
  if (s.rememberKeys) storage.setItem(KEYS_KEY, keysToStore(s.keys, s.keyOrigins));
  else storage.removeItem(KEYS_KEY);
}

/**
 * Which secrets (by id) were entered in this browser, never their values: after a reload clears
 * keys held in memory, a run that would call their owners first asks for them (see missingKeys).
 * An id leaves the list when the user clears that key or forgets all keys.
 */
export const KEYED_KEY = "conductor-studio.keyed.v1";

const KeyedSchema = z.array(z.string().min(1));

/** The ids of the secrets entered here, as stored; none when unreadable. */
export function loadKeyed(storage: Pick<Storage, "getItem">): string[] {
  try {
    const parsed = KeyedSchema.safeParse(JSON.parse(storage.getItem(KEYED_KEY) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The list after a change of keys: ids given a value join it; ids whose value was removed leave. */
export function nextKeyed(
  keyed: readonly string[],
  before: Record<string, string>,
  after: Record<string, string>,
): string[] {
  const out = new Set(keyed);
  for (const [id, v] of Object.entries(after)) if (v) out.add(id);
  for (const [id, v] of Object.entries(before)) if (v && !after[id]) out.delete(id);
  return [...out].sort();
}

/** Loads remembered keys (if opted in) and keeps storage in step with the opt-in and the keys. */
export function bootKeys(storage: KeyStorage): void {
  const loaded = loadKeys(storage);
  const keyed = loadKeyed(storage);
  useStudio.setState({ ...loaded, keyed });
  if (!loaded.rememberKeys) storage.removeItem(KEYS_KEY);
  let last = loaded;
  let written = keyed.join("\n");
  useStudio.subscribe((s) => {
    if (
      s.keys === last.keys &&
      s.keyOrigins === last.keyOrigins &&
      s.rememberKeys === last.rememberKeys
    )
      return;
    const now = nextKeyed(s.keyed, last.keys, s.keys);
    last = { keys: s.keys, keyOrigins: s.keyOrigins, rememberKeys: s.rememberKeys };
    syncKeys(s, storage);
    if (now.join("\n") !== written) {
      written = now.join("\n");
      storage.setItem(KEYED_KEY, JSON.stringify(now));
    }
    if (now.join("\n") !== s.keyed.join("\n")) useStudio.setState({ keyed: now });
  });
}

/** Forgets every secret of one owner (its key and its header values), e.g. when it leaves the pool. */
export function forgetSecretsOf(ownerId: string): void {
  const s = useStudio.getState();
  for (const id of Object.keys(s.keys)) if (ownerOfSecret(id) === ownerId) s.setKey(id, "");
}

/**
 * Sets a custom header of a worker. A secret one (the default) keeps its value here, with the keys
 * and under the same opt-in, bound to the worker's origin; the pool holds only `[redacted]`. A plain
 * one (marked not secret by the user) keeps its value on the worker, in files and storage.
 */
export function setHeader(workerId: string, name: string, value: string, secret: boolean): void {
  const s = useStudio.getState();
  const worker = s.pool.find((w) => w.id === workerId);
  if (!worker || name === "") return;
  const lower = name.toLowerCase();
  const headers = Object.fromEntries(
    Object.entries(worker.headers ?? {}).filter(([k]) => k.toLowerCase() !== lower),
  );
  const plain = (worker.plainHeaders ?? []).filter((n) => n.toLowerCase() !== lower);
  headers[name] = secret ? REDACTED : value;
  if (!secret) plain.push(name);
  s.updateWorker(workerId, { headers, plainHeaders: plain.length ? plain : undefined });
  s.setKey(headerSecretId(workerId, name), secret ? value : "");
}

/** Marks a header secret or not; its value moves between the key ring and the worker. */
export function setHeaderSecret(workerId: string, name: string, secret: boolean): void {
  const s = useStudio.getState();
  const worker = s.pool.find((w) => w.id === workerId);
  if (!worker?.headers || !(name in worker.headers)) return;
  if (secret === !isPlainHeader(worker, name)) return;
  // A secret entered for another origin is never revealed into the pool: it becomes blank.
  const value = secret
    ? (worker.headers[name] ?? "")
    : (boundKey(s, headerSecretId(workerId, name)) ?? "");
  setHeader(workerId, name, value, secret);
}

/** Removes a custom header and forgets its value. */
export function removeHeader(workerId: string, name: string): void {
  const s = useStudio.getState();
  const worker = s.pool.find((w) => w.id === workerId);
  if (!worker?.headers) return;
  const headers = Object.fromEntries(Object.entries(worker.headers).filter(([k]) => k !== name));
  const plain = (worker.plainHeaders ?? []).filter((n) => n !== name);
  s.updateWorker(workerId, {
    headers: Object.keys(headers).length ? headers : undefined,
    plainHeaders: plain.length ? plain : undefined,
  });
  s.setKey(headerSecretId(workerId, name), "");
}
