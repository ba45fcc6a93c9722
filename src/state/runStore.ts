import { RunStore } from "../engine/store/db.ts";

let store: RunStore | null | undefined;

/** The browser's run store (IndexedDB); null where there is none (tests without fake-indexeddb). */
export function runStore(): RunStore | null {
  if (store === undefined)
    store = typeof indexedDB === "undefined" ? null : new RunStore("conductor-studio");
  return store;
}

/** Replaces the run store (tests, benchmarks). */
export function setRunStore(next: RunStore | null): void {
  store = next;
}
