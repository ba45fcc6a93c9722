/**
 * The GGUF Conductor's lifecycle in the studio: load from a URL or from files on disk, the speed
 * test, the cache. The runtime (wllama) loads with the first of these, not with the page. A loaded
 * model becomes the in-browser backend (the Conductor "In this browser" and in-browser workers),
 * in place of a WebLLM model.
 */
import type { GgufBackend, GgufStats } from "../engine/llm/gguf/backend.ts";
import { ggufName } from "../engine/llm/gguf/catalogue.ts";
import type { GgufSource } from "./ggufLoader.ts";
import { holdRuntime, releaseRuntime } from "./inbrowserRuntime.ts";
import { useStudio } from "./store.ts";

const loader = () => import("./ggufLoader.ts");

let current: GgufBackend | null = null;
let loading: AbortController | null = null;

/** The model id the studio shows and records for a GGUF model. */
const idOf = (name: string) => `gguf:${name}`;

/** Whether the loaded in-browser model is a GGUF one. */
export const isGgufId = (id: string | null): boolean => !!id?.startsWith("gguf:");

/** Loads a GGUF model from `source`; on success it is the in-browser backend. */
export async function loadGgufModel(
  source: GgufSource,
  onProgress: (loaded: number, total: number) => void,
): Promise<void> {
  const name = "url" in source ? ggufName(source.url) : ggufName(source.files[0]?.name ?? "");
  const s = useStudio.getState();
  if (s.ibStatus === "loading") return;
  loading = new AbortController();
  s.setInBrowser({ ibStatus: "loading", ibModelId: idOf(name), ibProblem: null, ibStats: null });
  try {
    // Whatever holds memory (a WebLLM or a GGUF model) is freed before this one loads.
    await releaseRuntime();
    const { loadGguf } = await loader();
    const backend = await loadGguf(source, name, onProgress, loading.signal);
    current = backend;
    holdRuntime("gguf", backend, async () => {
      if (current === backend) current = null;
      await backend.unload();
    });
    useStudio.getState().setInBrowser({ ibStatus: "ready" });
  } catch (e: unknown) {
    useStudio.getState().setInBrowser({ ibStatus: "idle", ibModelId: null });
    throw e;
  } finally {
    loading = null;
  }
}

/** Cancels a download in progress. */
export function cancelGgufLoad(): void {
  loading?.abort();
}

/** Measures this device's prefill and decode speed on the loaded GGUF model. */
export async function runSpeedTest(): Promise<GgufStats | undefined> {
  if (!current) return undefined;
  const { speedTest } = await loader();
  const stats = await speedTest(current);
  if (stats) useStudio.getState().setInBrowser({ ibStats: stats });
  return stats;
}

/** Frees the GGUF model's memory (the runtime slot frees whichever model is loaded). */
export async function unloadGguf(): Promise<void> {
  useStudio.getState().setInBrowser({ ibStatus: "idle", ibStats: null });
  await releaseRuntime();
}

/** The GGUF files kept in the browser's storage, with their sizes. */
export async function cachedGguf(): Promise<{ name: string; url: string; size: number }[]> {
  return (await loader()).listCachedGguf();
}

/** Deletes a cached GGUF file. */
export async function deleteGguf(name: string): Promise<void> {
  await (await loader()).deleteCachedGguf(name);
}
