/**
 * The GGUF Conductor's lifecycle in the studio: load from a URL or from files on disk, the speed
 * test, the cache. The runtime (wllama) loads with the first of these, not with the page. A loaded
 * model becomes the in-browser backend (the Conductor "In this browser" and in-browser workers),
 * in place of a WebLLM model.
 */
import type { GgufBackend, GgufStats } from "../../engine/llm/gguf/backend.ts";
import { ggufName } from "../../engine/llm/gguf/catalogue.ts";
import { checkGgufFiles } from "../../engine/llm/gguf/files.ts";
import type { SpeedProbe } from "../../engine/llm/gguf/speed-estimate.ts";
import type { GgufSource } from "./ggufLoader.ts";
import { holdRuntime, releaseRuntime } from "./inbrowserRuntime.ts";
import { useStudio } from "../slices/store.ts";

const loader = () => import("./ggufLoader.ts");

let current: { backend: GgufBackend; name: string; bytes: number } | null = null;
let loading: AbortController | null = null;
/** The last speed test on this device (kept while the page is open), for projections. */
let lastProbe: SpeedProbe | null = null;

/** The model id the studio shows and records for a GGUF model. */
const idOf = (name: string) => `gguf:${name}`;

/**
 * Files from disk (picked or dropped) in load order, once they are checked to be one whole GGUF
 * model; otherwise throws the reason for the user.
 */
async function checkedFiles(files: readonly File[]): Promise<File[]> {
  const heads = await Promise.all(
    files.map(async (f) => ({
      name: f.name,
      head: new Uint8Array(await f.slice(0, 4).arrayBuffer()),
    })),
  );
  const check = checkGgufFiles(heads);
  if (!check.ok) throw new Error(check.message);
  return check.names.map((n) => files.find((f) => f.name === n)!);
}

/**
 * Loads a GGUF model from `source` (files are read in place, never uploaded); on success it is
 * the in-browser backend. Throws a message for the user when the files are not one GGUF model.
 */
export async function loadGgufModel(
  source: GgufSource,
  onProgress: (loaded: number, total: number) => void,
): Promise<void> {
  if ("files" in source) source = { files: await checkedFiles(source.files) };
  const name = "url" in source ? ggufName(source.url) : ggufName(source.files[0]?.name ?? "");
  let bytes = "files" in source ? source.files.reduce((n, f) => n + f.size, 0) : 0;
  const s = useStudio.getState();
  if (s.ibStatus === "loading") return;
  loading = new AbortController();
  s.setInBrowser({ ibStatus: "loading", ibModelId: idOf(name), ibProblem: null, ibStats: null });
  try {
    // Whatever holds memory (a WebLLM or a GGUF model) is freed before this one loads.
    await releaseRuntime();
    const { loadGguf } = await loader();
    const backend = await loadGguf(
      source,
      name,
      (loaded, total) => {
        bytes = total;
        onProgress(loaded, total);
      },
      loading.signal,
    );
    current = { backend, name, bytes };
    holdRuntime("gguf", backend, async () => {
      if (current?.backend === backend) current = null;
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
  const model = current;
  if (!model) return undefined;
  const { speedTest } = await loader();
  const stats = await speedTest(model.backend);
  if (stats) {
    useStudio.getState().setInBrowser({ ibStats: stats });
    if (model.bytes > 0) lastProbe = { modelName: model.name, modelBytes: model.bytes, stats };
  }
  return stats;
}

/** The last speed test measured on this device, with its model's size (null before one). */
export function lastSpeedProbe(): SpeedProbe | null {
  return lastProbe;
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
