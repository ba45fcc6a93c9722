import type { Locator, Page } from "@playwright/test";
import { expect } from "@playwright/test";

/** Page object for the Evaluate view. */
export class EvaluatePage {
  constructor(readonly page: Page) {}

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  async open() {
    await this.byTestId("open-evaluate").click();
    await expect(this.byTestId("evaluate-view")).toBeVisible();
  }

  async pickSample(id: "math" | "science" | "factual") {
    await this.byTestId(`sample-${id}`).click();
  }

  async choose(...strategies: string[]) {
    for (const s of strategies) await this.byTestId(`strategy-${s}`).check();
  }

  async start() {
    await this.byTestId("eval-start").click();
    await expect(this.byTestId("eval-progress")).toBeVisible();
  }

  /** Results done so far, read from the progress bar's "done/total". */
  async done(): Promise<number> {
    const text = (await this.byTestId("eval-done").textContent()) ?? "";
    return Number(text.split("/")[0]);
  }

  progress(): Locator {
    return this.byTestId("eval-progress");
  }

  accuracy(strategy: string): Locator {
    return this.byTestId(`report-${strategy}`).getByTestId("accuracy");
  }

  cell(item: string, strategy: string): Locator {
    return this.byTestId(`cell-${item}-${strategy}`);
  }
}
