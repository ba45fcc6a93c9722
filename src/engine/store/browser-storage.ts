/**
 * The thin browser adapter of the run store: the storage estimate and the request for
 * persistent storage (so the browser does not evict stored runs under pressure).
 */
export interface StorageInfo {
  usedBytes: number | null;
  quotaBytes: number | null;
  persisted: boolean;
}

interface StorageManagerLike {
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
}

function manager(): StorageManagerLike | undefined {
  const nav = (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator;
  return nav?.storage;
}

/** Asks the browser to keep this origin's storage; true when it will. Never throws. */
export async function requestPersistence(): Promise<boolean> {
  try {
    const m = manager();
    if (!m?.persisted || !m.persist) return false;
    return (await m.persisted()) || (await m.persist());
  } catch {
    return false;
  }
}

/** Storage used and available to this origin, where the browser says. Never throws. */
export async function storageInfo(): Promise<StorageInfo> {
  try {
    const m = manager();
    const e = (await m?.estimate?.()) ?? {};
    const persisted = (await m?.persisted?.()) ?? false;
    return { usedBytes: e.usage ?? null, quotaBytes: e.quota ?? null, persisted };
  } catch {
    return { usedBytes: null, quotaBytes: null, persisted: false };
  }
}
