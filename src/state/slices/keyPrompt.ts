// The store's key-prompt slice: keys a run waits for after a reload, and asking for them.
import type { StateCreator } from "zustand";
import { CONDUCTOR_KEY_ID, ownerOfSecret } from "./keybinding.ts";
import type { StudioState } from "./store.ts";

/** An endpoint whose key was entered in this browser but is not held now (a reload cleared it). */
export interface KeyNeed {
  /** The worker id, or CONDUCTOR_KEY_ID. */
  owner: string;
  name: string;
  /** The key-ring ids to fill: its API key and any secret header. */
  ids: string[];
}

/**
 * The owners among `owners` (worker ids, CONDUCTOR_KEY_ID) that had a secret entered in this
 * browser that is gone now, e.g. keys held in memory only, after a reload. Owners never given a
 * key (a local server) need none.
 */
export function missingKeys(
  s: Pick<StudioState, "keyed" | "keys" | "pool">,
  owners: Iterable<string>,
): KeyNeed[] {
  const wanted = new Set(owners);
  const byOwner = new Map<string, string[]>();
  for (const id of s.keyed) {
    const owner = ownerOfSecret(id);
    if (!wanted.has(owner) || s.keys[id]) continue;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), id]);
  }
  return [...byOwner].map(([owner, ids]) => ({
    owner,
    ids,
    name:
      owner === CONDUCTOR_KEY_ID
        ? "the Conductor"
        : (s.pool.find((w) => w.id === owner)?.name ?? owner),
  }));
}

/** What waits for keys ("Resume"), the endpoints that need them, and what to do once given. */
export interface KeyPrompt {
  what: string;
  needs: KeyNeed[];
  then: () => void;
}

export interface KeyPromptSlice {
  /** The key prompt on screen; null when no run waits for keys. */
  keyPrompt: KeyPrompt | null;
  setKeyPrompt: (prompt: KeyPrompt | null) => void;
}

export const createKeyPromptSlice: StateCreator<StudioState, [], [], KeyPromptSlice> = (set) => ({
  keyPrompt: null,
  setKeyPrompt: (keyPrompt) => set({ keyPrompt }),
});

/**
 * Whether a run must wait for keys: when an owner it will call lacks its key, nothing is called
 * and the missing keys are asked for (KeyPrompt), `then` running once they are given. True when
 * it asked (the caller stops); false when every key is held (the caller goes on).
 */
export function askForKeys(
  s: Pick<StudioState, "keyed" | "keys" | "pool" | "setKeyPrompt">,
  owners: Iterable<string>,
  what: string,
  then: () => void,
): boolean {
  const needs = missingKeys(s, owners);
  if (!needs.length) return false;
  s.setKeyPrompt({ what, needs, then });
  return true;
}
