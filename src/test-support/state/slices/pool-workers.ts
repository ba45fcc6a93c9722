// Test support for workers in the studio's pool (state/slices/pool.ts). Imported by test files only.
import type { Worker } from "../../../engine/schema/worker.ts";

/** An in-browser worker with id "local", as the pool editor names it, answering up to `maxTokens`. */
export function inBrowserWorker(maxTokens: number): Worker {
  return {
    id: "local",
    name: "In-browser model",
    kind: "webllm",
    baseURL: "",
    model: "",
    temperature: 0.2,
    maxTokens,
    prefill: false,
  };
}
