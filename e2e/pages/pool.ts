import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { PlanLists } from "../support/scenario.ts";
import { conductorText } from "../support/scenario.ts";
import { StudioPart } from "./studioPart.ts";

/** What a Conductor writes: a line of reasoning, then the three list assignments. */
export function planText(plan: PlanLists): string {
  return conductorText(plan, "Two attempts and a check.");
}

/** A downloaded file's name and text. */
export interface Downloaded {
  name: string;
  text: string;
}

/**
 * Page object for the worker pool (Settings → Workers), the keys and the run bar's estimate. Specs
 * drive the app through these methods and test ids, never through raw selectors.
 */
export class PoolPage extends StudioPart {
  /** Every console message, as text: the key specs search it for keys. */
  readonly console: string[] = [];

  constructor(page: Page) {
    super(page);
    page.on("console", (m) => this.console.push(`${m.type()}: ${m.text()}`));
  }

  goto(): Promise<void> {
    return this.studio.goto();
  }

  /** Opens Settings on the pool editor. */
  override async openSettings() {
    await super.openSettings();
    await expect(this.byTestId("pool-editor")).toBeVisible();
  }

  workers(): Locator {
    return this.byTestId("worker-row");
  }

  worker(i: number): Locator {
    return this.workers().nth(i);
  }

  /** Adds a worker from the preset menu and returns its card (the last one). */
  async addFromPreset(presetId: string): Promise<Locator> {
    const before = await this.workers().count();
    await this.byTestId("add-from-preset").selectOption(presetId);
    await expect(this.workers()).toHaveCount(before + 1);
    return this.worker(before);
  }

  async names(): Promise<string[]> {
    return this.workers()
      .getByTestId("worker-name")
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
  }

  /** Points worker `i` at an endpoint: base URL, model and (optionally) key. */
  async configure(
    i: number,
    fields: { name?: string; baseURL?: string; model?: string; key?: string },
  ) {
    const w = this.worker(i);
    if (fields.name !== undefined) await w.getByTestId("worker-name").fill(fields.name);
    if (fields.baseURL !== undefined) await w.getByTestId("worker-baseurl").fill(fields.baseURL);
    if (fields.model !== undefined) await w.getByTestId("worker-model").fill(fields.model);
    if (fields.key !== undefined) await w.getByTestId("worker-key").fill(fields.key);
  }

  async setPrice(i: number, input: number, output: number) {
    await this.worker(i).getByTestId("worker-price-input").fill(String(input));
    await this.worker(i).getByTestId("worker-price-output").fill(String(output));
  }

  /** Clicks "Fetch models" and returns the model names the dropdown offers. */
  async fetchModels(i: number): Promise<string[]> {
    const w = this.worker(i);
    await w.getByTestId("fetch-models").click();
    const select = w.getByTestId("model-select");
    await expect(select).toBeVisible();
    const options = await select.locator("option").allTextContents();
    return options.slice(1); // the first is the prompt
  }

  /** Runs "Test connection" on worker `i` and returns the outcome kind and the message shown. */
  async testConnection(i: number): Promise<{ outcome: string; text: string }> {
    const w = this.worker(i);
    await w.getByTestId("test-connection").click();
    const result = w.getByTestId("connection-result");
    await expect(result).toBeVisible();
    await expect(w.getByTestId("test-connection")).toBeEnabled();
    return {
      outcome: (await result.getAttribute("data-outcome")) ?? "",
      text: (await result.textContent()) ?? "",
    };
  }

  async setRememberKeys(on: boolean) {
    await this.byTestId("remember-keys").setChecked(on);
  }

  async forgetKeys() {
    await this.byTestId("forget-keys").click();
    await expect(this.byTestId("keys-status")).toContainText("All keys forgotten");
  }

  /** The key fields' values, in pool order. */
  async keyValues(): Promise<string[]> {
    return this.workers()
      .getByTestId("worker-key")
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
  }

  private async download(testId: string): Promise<Downloaded> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.byTestId(testId).click(),
    ]);
    return {
      name: download.suggestedFilename(),
      text: await readFile(await download.path(), "utf8"),
    };
  }

  exportPool(): Promise<Downloaded> {
    return this.download("export-pool");
  }

  exportRun(): Promise<Downloaded> {
    return this.download("export-run");
  }

  async importPool(name: string, text: string) {
    await this.byTestId("import-pool-input").setInputFiles({
      name,
      mimeType: "application/json",
      buffer: Buffer.from(text),
    });
  }

  /** Sets a remote Conductor (Settings must be open). */
  async useRemoteConductor(baseURL: string, model: string, key?: string) {
    await this.byTestId("backend-remote").check();
    await this.byTestId("conductor-baseurl").fill(baseURL);
    await this.byTestId("conductor-model").fill(model);
    if (key) await this.byTestId("conductor-key").fill(key);
  }

  /** Types the question, plans, and waits for `steps` nodes. */
  async plan(question: string, steps: number) {
    await this.byTestId("question").fill(question);
    await this.byTestId("plan").click();
    await expect(this.byTestId("plan")).toBeEnabled();
    await expect(this.byTestId("step-node")).toHaveCount(steps);
  }

  /** Runs the workflow and waits until every step is done. */
  async runToDone(steps: number) {
    await this.byTestId("run").click();
    await expect(this.byTestId("run")).toBeEnabled();
    await expect(this.page.locator('[data-testid="status-badge"][data-status="done"]')).toHaveCount(
      steps,
    );
  }

  estimate(): Locator {
    return this.byTestId("run-estimate");
  }

  /** Everything this origin keeps in localStorage, as one text. */
  localStorageText(): Promise<string> {
    return this.page.evaluate(() => JSON.stringify({ ...localStorage }));
  }

  /** Every record of every object store of every IndexedDB database of this origin, as one text. */
  indexedDbText(): Promise<string> {
    return this.page.evaluate(async () => {
      const request = <T>(r: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error ?? new Error("IndexedDB request failed"));
        });
      const out: unknown[] = [];
      for (const info of await indexedDB.databases()) {
        if (!info.name) continue;
        const open = indexedDB.open(info.name);
        const db = await request(open);
        for (const store of Array.from(db.objectStoreNames)) {
          const tx = db.transaction(store, "readonly");
          const records = await request(tx.objectStore(store).getAll());
          out.push({
            db: info.name,
            store,
            records: records.map((r) => String(JSON.stringify(r))),
          });
        }
        db.close();
      }
      return JSON.stringify(out);
    });
  }
}
