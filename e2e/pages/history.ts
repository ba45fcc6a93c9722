import { readFile } from "node:fs/promises";
import type { Locator } from "@playwright/test";
import { expect } from "@playwright/test";
import type { FileInput } from "./studio.ts";
import { StudioPage } from "./studio.ts";

/** A JSON-lines export of History's selection: the file's name and text, and each line parsed. */
export interface JsonLinesFile {
  name: string;
  text: string;
  lines: unknown[];
}

/** The studio with its history panel and compare view. */
export class HistoryPage extends StudioPage {
  async openHistory() {
    if (!(await this.byTestId("history-panel").isVisible()))
      await this.byTestId("open-history").click();
    await expect(this.byTestId("history-panel")).toBeVisible();
  }

  async closeHistory() {
    if (await this.byTestId("history-panel").isVisible())
      await this.byTestId("open-history").click();
    await expect(this.byTestId("inspector")).toBeVisible();
  }

  entries(): Locator {
    return this.byTestId("history-entry");
  }

  entry(i: number): Locator {
    return this.entries().nth(i);
  }

  /** The row of the stored run with this key (wherever it is in the list). */
  entryByKey(key: string): Locator {
    return this.page.locator(`[data-testid="history-entry"][data-key="${key}"]`);
  }

  /** The stored keys of the listed runs, in list order (newest first). */
  async keys(): Promise<string[]> {
    const keys = await this.entries().evaluateAll((rows) =>
      rows.map((r) => r.getAttribute("data-key") ?? ""),
    );
    return keys;
  }

  /** Opens the i-th run of the list (newest first). */
  async openEntry(i: number) {
    await this.entry(i).getByTestId("history-open").click();
  }

  /** The name a row shows (the user's title, else the question). */
  title(row: Locator): Locator {
    return row.getByTestId("history-open");
  }

  /** Renames a run from its row: Rename, type the name, Enter. */
  async rename(row: Locator, name: string) {
    await row.getByTestId("history-rename").click();
    const input = row.getByTestId("history-rename-input");
    await expect(input).toBeFocused();
    await input.fill(name);
    await input.press("Enter");
  }

  async search(text: string) {
    await this.byTestId("history-search").fill(text);
  }

  star(row: Locator): Locator {
    return row.getByTestId("history-star");
  }

  async starredOnly(on: boolean) {
    await this.byTestId("history-starred-filter").setChecked(on);
  }

  async select(row: Locator) {
    await row.getByTestId("history-select").check();
  }

  async deleteSelected() {
    await this.byTestId("history-delete-selected").click();
  }

  undoNotice(): Locator {
    return this.byTestId("history-undo");
  }

  async undoDelete() {
    await this.byTestId("history-undo-button").click();
  }

  /** Exports the selected runs as one JSON-lines file. */
  async exportJsonLines(): Promise<JsonLinesFile> {
    const [download] = await Promise.all([
      this.page.waitForEvent("download"),
      this.byTestId("history-export-jsonl").click(),
    ]);
    const text = await readFile(await download.path(), "utf8");
    const lines = text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as unknown);
    return { name: download.suggestedFilename(), text, lines };
  }

  /** Imports files through History's "Import files…" picker. */
  async importIntoHistory(files: FileInput | FileInput[]) {
    await this.byTestId("history-import").setInputFiles(
      files as Parameters<Locator["setInputFiles"]>[0],
    );
  }

  lineage(): Locator {
    return this.byTestId("history-lineage");
  }

  /**
   * Waits until a stored run holds `text`: the stored record has caught up with what is on screen
   * (it is written at most every half second).
   */
  async waitStored(text: string) {
    await expect
      .poll(async () => (await this.storedTexts()).some((t) => t.includes(text)))
      .toBe(true);
  }

  /** The stored export texts of every run, read straight from IndexedDB. */
  storedTexts(): Promise<string[]> {
    return this.page.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const open = indexedDB.open("conductor-studio");
          open.onerror = () => reject(new Error("no run store"));
          open.onsuccess = () => {
            const db = open.result;
            const get = db.transaction("records").objectStore("records").getAll();
            get.onsuccess = () => {
              db.close();
              resolve((get.result as { run: string }[]).map((r) => r.run));
            };
            get.onerror = () => reject(new Error("could not read the run store"));
          };
        }),
    );
  }
}
