import { newWorkerId, paperPool, workerFromPreset } from "../engine/pool/paper.ts";
import { CUSTOM_PRESET, presetById } from "../engine/pool/presets.ts";
import { listPrice } from "../engine/pool/prices.ts";
import { exportPool, importPool } from "../engine/pool/transfer.ts";
import type { Worker } from "../engine/schema/worker.ts";
import { useStudio } from "./store.ts";

/** The pool editor's actions, over the settings slice. Order is the Model id the Conductor sees. */

/** What the "add" menu offers besides the provider presets. */
export const IN_BROWSER_CHOICE = "in-browser";
export const CONDUCTOR_CHOICE = "conductor";

/** Adds a worker from a provider preset id, or an in-browser / Conductor worker; returns its id. */
export function addWorkerFrom(choice: string): string {
  const s = useStudio.getState();
  const id = newWorkerId();
  let worker: Worker;
  if (choice === IN_BROWSER_CHOICE || choice === CONDUCTOR_CHOICE) {
    const inBrowser = choice === IN_BROWSER_CHOICE;
    worker = {
      id,
      name: inBrowser ? "In-browser model" : "The Conductor",
      kind: inBrowser ? "webllm" : "conductor",
      baseURL: "",
      model: "",
      temperature: 0.2,
      maxTokens: 4096,
      prefill: false,
      note: inBrowser
        ? "Runs on this computer's GPU; free and private, slower than an API."
        : "The Conductor itself: plans and runs a nested workflow for this step.",
    };
  } else {
    const preset = presetById(choice) ?? CUSTOM_PRESET;
    worker = workerFromPreset(preset, {
      id,
      ...(preset === CUSTOM_PRESET ? { name: `Worker ${s.pool.length}` } : {}),
    });
  }
  s.addWorker(worker);
  return id;
}

/** Moves the worker at `index` one place up (-1) or down (+1). */
export function moveWorker(index: number, by: -1 | 1): void {
  const s = useStudio.getState();
  const to = index + by;
  if (to < 0 || to >= s.pool.length) return;
  const pool = [...s.pool];
  const [w] = pool.splice(index, 1);
  if (w) pool.splice(to, 0, w);
  s.setPool(pool);
}

/** Removes a worker and forgets its key. */
export function removeWorker(id: string): void {
  const s = useStudio.getState();
  s.removeWorker(id);
  s.setKey(id, "");
}

/** Switches a worker to another provider: its base URL, headers and known price follow. */
export function changeProvider(worker: Worker, providerId: string): void {
  const preset = presetById(providerId) ?? CUSTOM_PRESET;
  const price = listPrice(preset.id, worker.model);
  useStudio.getState().updateWorker(worker.id, {
    provider: preset.id,
    baseURL: preset.baseURL || worker.baseURL,
    headers: preset.headers ? { ...preset.headers } : undefined,
    ...(price ? { price: { input: price.input, output: price.output } } : {}),
  });
}

/**
 * Changes a worker's model. The price follows the new model's list price when the worker still had
 * the old model's list price (or none); a price the user typed is kept.
 */
export function changeModel(worker: Worker, model: string): void {
  const oldList = listPrice(worker.provider, worker.model);
  const newList = listPrice(worker.provider, model);
  const untouched =
    !worker.price ||
    (oldList !== undefined &&
      worker.price.input === oldList.input &&
      worker.price.output === oldList.output);
  useStudio.getState().updateWorker(worker.id, {
    model,
    ...(untouched
      ? { price: newList ? { input: newList.input, output: newList.output } : undefined }
      : {}),
  });
}

/** Gives a worker's key to every other worker whose base URL has the same origin. */
export function shareKeyWithOrigin(worker: Worker): number {
  const s = useStudio.getState();
  const key = s.keys[worker.id];
  const origin = originOf(worker.baseURL);
  if (!key || !origin) return 0;
  const others = s.pool.filter((w) => w.id !== worker.id && originOf(w.baseURL) === origin);
  for (const w of others) s.setKey(w.id, key);
  return others.length;
}

/** The origin of a base URL, or null when it is not a URL. */
export function originOf(baseURL: string): string | null {
  try {
    return new URL(baseURL).origin;
  } catch {
    return null;
  }
}

/** Replaces the pool with the paper's seven workers (keys of removed workers are forgotten). */
export function loadPaperPool(): void {
  const s = useStudio.getState();
  const next = paperPool();
  for (const w of s.pool) if (!next.some((n) => n.id === w.id)) s.setKey(w.id, "");
  s.setPool(next);
}

/** The pool file's text: versioned, without keys. */
export function poolExportText(): string {
  return exportPool(useStudio.getState().pool);
}

/** Replaces the pool with a pool file's workers; returns the message to show on failure. */
export function importPoolText(text: string): string | null {
  const result = importPool(text);
  if (!result.ok) return result.message;
  const s = useStudio.getState();
  for (const w of s.pool) if (!result.workers.some((n) => n.id === w.id)) s.setKey(w.id, "");
  s.setPool(result.workers);
  return null;
}
