/**
 * The GGUF Conductor in the browser: llama.cpp compiled to WebAssembly (wllama), which runs the
 * model in its own Web Worker. This module (and wllama with it) loads only when the user chooses a
 * GGUF model, so the first page load does not carry it. The wasm is bundled (no CDN): the default
 * build where the browser has JSPI and 64-bit memory (Chromium), the compat build elsewhere.
 */
import { LoggerWithoutDebug, Wllama } from "@wllama/wllama";
import wasmUrl from "@wllama/wllama/esm/wasm/wllama.wasm?url";
import compatJsUrl from "@wllama/wllama-compat/wasm/wllama.js?url";
import compatWasmUrl from "@wllama/wllama-compat/wasm/wllama.wasm?url";
import type { GgufBackend, GgufStats } from "../../engine/llm/gguf/backend.ts";
import { createGgufBackend } from "../../engine/llm/gguf/backend.ts";
import { collect } from "../../engine/llm/types.ts";

/** The context the Conductor is loaded with: its prompt and a plan fit in it. */
const CONTEXT = 8192;

/** Where the weights come from: a URL (cached in the browser's storage) or files from disk. */
export type GgufSource = { url: string } | { files: File[] };

function newWllama(): Wllama {
  const wllama = new Wllama(
    { default: wasmUrl },
    { suppressNativeLog: true, logger: { ...LoggerWithoutDebug, warn: () => {} } },
  );
  wllama.setCompat({ worker: compatJsUrl, wasm: compatWasmUrl });
  return wllama;
}

/** Loads a GGUF model and returns its backend; throws a message for the user on failure. */
export async function loadGguf(
  source: GgufSource,
  name: string,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal,
): Promise<GgufBackend> {
  const wllama = newWllama();
  try {
    if ("files" in source) {
      // Checked to be one whole model and put in load order by the controller (files.ts).
      await wllama.loadModel(source.files, { n_ctx: CONTEXT });
    } else {
      await wllama.loadModelFromUrl(source.url, {
        n_ctx: CONTEXT,
        signal,
        progressCallback: ({ loaded, total }) => onProgress(loaded, total),
      });
    }
  } catch (e: unknown) {
    await wllama.exit().catch(() => undefined);
    throw e;
  }
  return createGgufBackend(wllama, { modelId: name, contextWindow: CONTEXT });
}

/**
 * This device's speed on the loaded model: one short generation, timed by llama.cpp itself
 * (prefill and decode tokens per second).
 */
export async function speedTest(backend: GgufBackend): Promise<GgufStats | undefined> {
  const words = "Plan how a team of language models will answer the question below. ".repeat(8);
  // A grammar of a fixed length, so every model decodes the same number of tokens (no early end).
  const grammar = "root ::= [a-z ]{48}";
  await collect(
    backend,
    { messages: [{ role: "user", content: words }], temperature: 0, maxTokens: 48, grammar },
    new AbortController().signal,
  );
  return backend.lastStats;
}

/** The GGUF files in the browser's cache (downloaded by URL), with their sizes. */
export async function listCachedGguf(): Promise<{ name: string; url: string; size: number }[]> {
  const entries = await newWllama().cacheManager.list();
  return entries.map((e) => ({ name: e.name, url: e.metadata.originalURL, size: e.size }));
}

/** Deletes one cached GGUF file. */
export async function deleteCachedGguf(name: string): Promise<void> {
  await newWllama().cacheManager.delete(name);
}
