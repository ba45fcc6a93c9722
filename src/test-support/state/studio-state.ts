// Test support for the state tests: the local test server (docs/protocol.md §4) and workers that
// call it, and the stores reset between cases. Imported by test files only; not a test file itself.
import { afterAll, beforeAll } from "vitest";
import type { TestServer } from "../../../e2e/server/server.ts";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { createDexieEvalStore, setEvalStore } from "../../state/eval/evalStore.ts";
import { useStudio } from "../../state/slices/store.ts";

// The store as it was before any test of the file changed it.
const initialStudio = useStudio.getState();

/** Starts the test server before the file's tests and closes it after; call inside the file's top level. */
export function serverForFile(): () => TestServer {
  let server: TestServer | null = null;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());
  return () => {
    if (!server) throw new Error("The test server starts in beforeAll: read it inside a test.");
    return server;
  };
}

/** A worker of the test server whose id, name and model are `id` unless `patch` says otherwise. */
export function serverWorker(server: TestServer, id: string, patch: Partial<Worker> = {}): Worker {
  return {
    id,
    name: id,
    kind: "openai",
    baseURL: server.baseURL,
    model: id,
    temperature: 0.2,
    maxTokens: 256,
    prefill: false,
    ...patch,
  };
}

/** Worker `i` of the run tests: id w{i}, named "Worker {i}", model m{i}. */
export function numberedWorker(server: TestServer, i: number): Worker {
  return serverWorker(server, `w${i}`, { name: `Worker ${i}`, model: `m${i}` });
}

/** Puts the studio store (every slice, the Evaluate view's and History's too) back as it was before the file's first test. */
export function resetStudio(): void {
  useStudio.setState(initialStudio, true);
}

/** Resets the studio and the Evaluate view, with an evaluation store of its own in IndexedDB. */
export function resetEvaluate(name: string): void {
  resetStudio();
  setEvalStore(createDexieEvalStore(`${name}-${Math.random()}`));
}

/** A Storage in memory (the state tests run outside a browser), holding `entries` to begin with. */
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
