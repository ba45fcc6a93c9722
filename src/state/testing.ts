// Test support for the state tests, which run outside a browser. Not a test file itself.

/** Test helper: a Storage in memory, holding `entries` to begin with. */
export function memoryStorage(entries: Record<string, string> = {}): Storage {
  const memory = new Map(Object.entries(entries));
  return {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => void memory.set(k, v),
    removeItem: (k: string) => void memory.delete(k),
    clear: () => memory.clear(),
    key: () => null,
    get length() {
      return memory.size;
    },
  };
}
