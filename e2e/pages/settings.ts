import type { Page } from "@playwright/test";

/** Where the app keeps its settings (src/state/storage/persist.ts). */
export const SETTINGS_KEY = "conductor-studio.settings.v1";

/** A worker of the pool as the stored settings hold it. */
export interface StoredWorkerFields {
  name: string;
  kind: "openai" | "webllm" | "conductor";
  baseURL: string;
  model: string;
  prefill?: boolean;
  price?: { input: number; output: number };
}

/** The `i`-th worker of a stored pool: id `w<i>`, temperature 0.2, 512 tokens, no prefill unless set. */
export function storedWorker(i: number, w: StoredWorkerFields) {
  return {
    id: `w${i}`,
    name: w.name,
    kind: w.kind,
    baseURL: w.baseURL,
    model: w.model,
    temperature: 0.2,
    maxTokens: 512,
    prefill: w.prefill ?? false,
    ...(w.price ? { price: w.price } : {}),
  };
}

/** Stores `settings` (pool, Conductor, ...) as the app's saved settings before the app boots. */
export async function storeSettings(page: Page, settings: Record<string, unknown>): Promise<void> {
  // Init scripts run in every frame: the code sandbox's frames (opaque origins) have no storage.
  await page.addInitScript(
    ([key, value]) => {
      if (self.origin !== "null") localStorage.setItem(key, value);
    },
    [SETTINGS_KEY, JSON.stringify(settings)] as const,
  );
}
