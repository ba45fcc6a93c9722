import { z } from "zod";
import type { StudioState } from "./store.ts";
import { useStudio } from "./store.ts";

/**
 * Where keys live in this browser, apart from the settings, and only while the user has opted in to
 * "remember keys in this browser". Without the opt-in this entry does not exist: keys stay in memory
 * and are gone when the page closes. Its presence is also what records the opt-in.
 */
export const KEYS_KEY = "conductor-studio.keys.v1";

const StoredKeysSchema = z.strictObject({
  version: z.literal(1),
  keys: z.record(z.string().min(1), z.string().min(1)),
});

type KeyStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** What the stored entry says: the opt-in and the keys. Anything unreadable counts as no opt-in. */
export function loadKeys(
  storage: Pick<Storage, "getItem">,
): Pick<StudioState, "keys" | "rememberKeys"> {
  const text = storage.getItem(KEYS_KEY);
  if (!text) return { keys: {}, rememberKeys: false };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const parsed = StoredKeysSchema.safeParse(raw);
  if (!parsed.success) {
    // Says nothing of the content: it may hold keys.
    console.warn("Conductor Studio: the remembered keys are unreadable and were ignored.");
    return { keys: {}, rememberKeys: false };
  }
  return { keys: parsed.data.keys, rememberKeys: true };
}

/** The stored form of the keys. */
export function keysToStore(keys: Record<string, string>): string {
  const entries = Object.entries(keys).filter(([, v]) => v !== "");
  return JSON.stringify({ version: 1, keys: Object.fromEntries(entries) });
}

/** Writes the keys while the opt-in is on; removes them the moment it is off. */
export function syncKeys(s: Pick<StudioState, "keys" | "rememberKeys">, storage: KeyStorage): void {
  if (s.rememberKeys) storage.setItem(KEYS_KEY, keysToStore(s.keys));
  else storage.removeItem(KEYS_KEY);
}

/** Loads remembered keys (if opted in) and keeps storage in step with the opt-in and the keys. */
export function bootKeys(storage: KeyStorage): void {
  const loaded = loadKeys(storage);
  useStudio.setState(loaded);
  if (!loaded.rememberKeys) storage.removeItem(KEYS_KEY);
  let last = { keys: loaded.keys, rememberKeys: loaded.rememberKeys };
  useStudio.subscribe((s) => {
    if (s.keys === last.keys && s.rememberKeys === last.rememberKeys) return;
    last = { keys: s.keys, rememberKeys: s.rememberKeys };
    syncKeys(s, storage);
  });
}
