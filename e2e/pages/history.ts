import type { Locator } from "@playwright/test";
import { expect } from "@playwright/test";
import { StudioPage } from "./studio.ts";

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

  /** Opens the i-th run of the list (newest first). */
  async openEntry(i: number) {
    await this.entry(i).getByTestId("history-open").click();
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
