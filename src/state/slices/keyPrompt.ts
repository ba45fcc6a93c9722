// The store's key-prompt slice: keys a run waits for after a reload, and asking for them.
import type { StateCreator } from "zustand";
import { CONDUCTOR_KEY_ID, ownerOfSecret } from "./keybinding.ts";
import type { StudioState, KeyNeed, KeyPromptSlice } from "./studio-state.ts";
export type { KeyNeed, KeyPrompt, KeyPromptSlice } from "./studio-state.ts";

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
