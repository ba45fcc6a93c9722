// The pool editor's actions: add, move, remove and change workers; import and export the pool.
import type { Failure } from "../../engine/errors.ts";
import { ErrorCode } from "../../engine/errors.ts";
import { newWorkerId, paperPool, workerFromPreset } from "../../engine/pool/paper.ts";
import type { ProviderPreset } from "../../engine/pool/presets.ts";
import { CUSTOM_PRESET, PROVIDER_PRESETS, presetById } from "../../engine/pool/presets.ts";
import { listPrice } from "../../engine/pool/prices.ts";
import { exportPool, importPool } from "../../engine/pool/transfer.ts";
import type { Worker } from "../../engine/schema/worker.ts";
import { currentOrigin, originOf } from "./keybinding.ts";
import { forgetSecretsOf } from "../storage/keyring.ts";
import { useStudio } from "./store.ts";

export { originOf };

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
  s.setPool(pool, `move “${w?.name ?? ""}” ${by < 0 ? "up" : "down"}`);
}

/** Removes a worker and forgets its key and header values. */
export function removeWorker(id: string): void {
  const s = useStudio.getState();
  s.removeWorker(id);
  forgetSecretsOf(id);
}

/**
 * Switches a worker to another provider: its base URL, headers and known price follow. Its key
 * stays bound to the old origin, so it is not sent to the new provider until the user confirms.
 */
export function changeProvider(worker: Worker, providerId: string): void {
  const preset = presetById(providerId) ?? CUSTOM_PRESET;
  const price = listPrice(preset.id, worker.model);
  useStudio.getState().updateWorker(worker.id, {
    ...providerPatch(worker, preset),
    baseURL: preset.baseURL || worker.baseURL,
    ...(price ? { price: { input: price.input, output: price.output } } : {}),
  });
}

/** A provider's fields for a worker: its id and headers. */
function providerPatch(worker: Worker, preset: ProviderPreset): Partial<Worker> {
  // The old provider's own headers go; the user's custom headers stay (their secrets, bound to the
  // old origin, wait for a confirmation like the key); the new provider's headers come.
  const oldPreset = Object.keys(presetById(worker.provider)?.headers ?? {});
  const mine = Object.entries(worker.headers ?? {}).filter(([k]) => !oldPreset.includes(k));
  const headers = { ...Object.fromEntries(mine), ...preset.headers };
  const plain = [
    ...(worker.plainHeaders ?? []).filter((k) => !oldPreset.includes(k) && k in headers),
    ...Object.keys(preset.headers ?? {}),
  ];
  return {
    provider: preset.id,
    headers: Object.keys(headers).length ? headers : undefined,
    plainHeaders: plain.length ? [...new Set(plain)] : undefined,
  };
}

/**
 * Changes a worker's base URL. The provider follows it: a URL at another provider's origin is
 * that provider's, one at no preset's origin is a custom endpoint, so the label never names a
 * provider the worker no longer calls. Headers are kept: they are the user's now.
 */
export function changeBaseURL(worker: Worker, baseURL: string): void {
  const origin = originOf(baseURL);
  const current = presetById(worker.provider);
  const match = PROVIDER_PRESETS.find((p) => p.baseURL && originOf(p.baseURL) === origin);
  const keeps = current?.baseURL ? originOf(current.baseURL) === origin : !match;
  const preset = keeps ? current : (match ?? CUSTOM_PRESET);
  if (!preset || preset === current)
    return useStudio.getState().updateWorker(worker.id, { baseURL });
  // A list price follows the provider, as it follows the model; a typed one stays. Headers stay
  // as they are (a proxy in front of a provider still needs them).
  const oldList = listPrice(worker.provider, worker.model);
  const listed =
    !worker.price ||
    (oldList !== undefined &&
      worker.price.input === oldList.input &&
      worker.price.output === oldList.output);
  const newList = listPrice(preset.id, worker.model);
  useStudio.getState().updateWorker(worker.id, {
    baseURL,
    provider: preset.id,
    ...(listed
      ? { price: newList ? { input: newList.input, output: newList.output } : undefined }
      : {}),
  });
}

/**
 * Whether a worker's name was given rather than typed: empty, its model's (numbered, as a copy's
 * is: "gpt-5 2"), its preset's label or "Worker n". Such a name follows the model.
 */
export function nameFollowsModel(worker: Worker): boolean {
  const name = worker.name.trim();
  const model = worker.model.trim();
  return (
    name === "" ||
    (model !== "" && name.startsWith(model) && /^( \d+)?$/.test(name.slice(model.length))) ||
    name === presetById(worker.provider)?.label ||
    /^Worker \d+$/.test(name)
  );
}

/** A name from a model, numbered where another worker has it already ("gpt-5", "gpt-5 2"). */
export function modelName(model: string, pool: readonly Worker[], selfId?: string): string {
  const base = model.trim().replace(/ \d+$/, "");
  const taken = new Set(pool.filter((w) => w.id !== selfId).map((w) => w.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/**
 * Changes a worker's model. The price follows the new model's list price when the worker still had
 * the old model's list price (or none); a price the user typed is kept. So does the name: one
 * given from the model (or the preset) follows it, one the user typed stays.
 */
export function changeModel(worker: Worker, model: string): void {
  const oldList = listPrice(worker.provider, worker.model);
  const newList = listPrice(worker.provider, model);
  const untouched =
    !worker.price ||
    (oldList !== undefined &&
      worker.price.input === oldList.input &&
      worker.price.output === oldList.output);
  const rename = model.trim() !== "" && nameFollowsModel(worker);
  const s = useStudio.getState();
  s.updateWorker(worker.id, {
    model,
    ...(untouched
      ? { price: newList ? { input: newList.input, output: newList.output } : undefined }
      : {}),
    ...(rename ? { name: modelName(model, s.pool, worker.id) } : {}),
  });
}

/** Gives a worker's key to every other worker whose base URL has the same origin. */
export function shareKeyWithOrigin(worker: Worker): number {
  const s = useStudio.getState();
  const key = s.keys[worker.id];
  const origin = originOf(worker.baseURL);
  if (!key || !origin || s.keyOrigins[worker.id] !== origin) return 0;
  const others = s.pool.filter((w) => w.id !== worker.id && originOf(w.baseURL) === origin);
  for (const w of others) s.setKey(w.id, key, origin);
  return others.length;
}

/** Replaces the pool with the paper's seven workers (keys of removed workers are forgotten). */
export function loadPaperPool(): void {
  const s = useStudio.getState();
  const next = paperPool();
  const ids = new Set(next.map((w) => w.id));
  // The pool first: its undo entry keeps the secrets that are forgotten next.
  s.setPool(next, "load the paper pool");
  for (const w of s.pool) if (!ids.has(w.id)) forgetSecretsOf(w.id);
}

/** The pool file's text: versioned, without keys. */
export function poolExportText(): string {
  return exportPool(useStudio.getState().pool);
}

/** What an imported pool did to the keys held: kept where the origin is the same, else held back. */
export interface KeyReport {
  /** Keys whose worker still points at the origin they were entered for: still sent there. */
  kept: number;
  /** Keys whose worker now points elsewhere: not sent until the user confirms or replaces them. */
  heldBack: string[];
}

/** How the keys held fare once `pool` replaces the current one (keybinding.ts decides what is sent). */
export function keyReport(pool: readonly Worker[]): KeyReport {
  const s = useStudio.getState();
  const next = { pool: [...pool], conductor: s.conductor };
  const report: KeyReport = { kept: 0, heldBack: [] };
  for (const w of pool) {
    if (!s.keys[w.id]) continue;
    const to = currentOrigin(next, w.id);
    if (to !== null && s.keyOrigins[w.id] === to) report.kept++;
    else report.heldBack.push(w.name);
  }
  return report;
}

/** The sentence an import shows about the keys it met. */
export function describeKeyReport(r: KeyReport): string {
  const parts: string[] = [];
  if (r.kept) parts.push(`${r.kept} key${r.kept === 1 ? "" : "s"} kept for the same endpoint`);
  if (r.heldBack.length)
    parts.push(
      `${r.heldBack.length} key${r.heldBack.length === 1 ? "" : "s"} not sent, because the file points ` +
        `${r.heldBack.length === 1 ? "its worker" : "their workers"} elsewhere (${r.heldBack.slice(0, 3).join(", ")}${r.heldBack.length > 3 ? ", …" : ""}): enter a key or confirm it in each worker`,
    );
  return parts.length ? `${parts.join("; ")}.` : "Add the keys.";
}

/**
 * Replaces the pool with a pool file's workers. Returns the failure message, or the sentence about
 * the keys. A refused file changes nothing.
 */
export function importPoolFile(
  text: string,
): ({ ok: false } & Failure) | { ok: true; keys: string } {
  const result = importPool(text);
  if (!result.ok) return { ok: false, code: result.code, message: result.message };
  const before = useStudio.getState();
  const report = keyReport(result.workers);
  const ids = new Set(result.workers.map((w) => w.id));
  try {
    useStudio.getState().setPool(result.workers, "import a pool");
    for (const w of before.pool) if (!ids.has(w.id)) forgetSecretsOf(w.id);
  } catch (e: unknown) {
    // All or nothing (storage full, say): the pool and keys are put back as they were.
    useStudio.setState(before, true);
    const detail = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      code: ErrorCode.invalid_config,
      message: `it could not be applied, and nothing was changed: ${detail}`,
    };
  }
  return { ok: true, keys: describeKeyReport(report) };
}

/** Replaces the pool with a pool file's workers; returns the message to show on failure. */
export function importPoolText(text: string): string | null {
  const result = importPoolFile(text);
  return result.ok ? null : result.message;
}
