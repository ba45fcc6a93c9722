// The studio's run store (IndexedDB), set at boot and replaceable in tests.
import type { RunStore } from "../../engine/store/db.ts";

let store: RunStore | null | undefined;
let loading: Promise<RunStore | null> | null = null;

/**
 * Loads the browser's run store (IndexedDB through Dexie). Dexie is not needed for the first paint,
 * so it comes in its own chunk; main.tsx awaits this before the studio renders, so every later
 * `runStore()` finds it.
 */
export function loadRunStore(): Promise<RunStore | null> {
  if (store !== undefined) return Promise.resolve(store);
  loading ??= (async () => {
    if (typeof indexedDB === "undefined") return (store = null);
    try {
      const { RunStore } = await import("../../engine/store/db.ts");
      store ??= new RunStore("conductor-studio");
    } catch {
      store ??= null;
    }
    return store;
  })();
  return loading;
}

/** The run store once loaded; null where there is none (tests without fake-indexeddb). */
export function runStore(): RunStore | null {
  return store ?? null;
}

/** Replaces the run store (tests, benchmarks). */
export function setRunStore(next: RunStore | null): void {
  store = next;
}
