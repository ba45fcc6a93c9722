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

  async pickSample(id: "math" | "science" | "factual" | "code") {
    await this.byTestId(`sample-${id}`).click();
  }

  /** Imports a question file as if the user picked it. */
  async importFile(name: string, text: string) {
    await this.byTestId("eval-file").setInputFiles({
      name,
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(text),
    });
    await expect(this.byTestId("eval-source")).toContainText(name);
  }

  /**
   * Starts recording every animation frame (its time and the gap since the previous one) and the
   * time `testId` first appears; `frames()` reads the recording.
   */
  async recordFrames(testId: string) {
    await this.page.evaluate((testId) => {
      const w = window as unknown as FrameRecording;
      w.__frames = { gaps: [], seenAt: null };
      let last = performance.now();
      const tick = (now: number) => {
        const rec = w.__frames!;
        rec.gaps.push([now, now - last]);
        last = now;
        if (rec.seenAt === null && document.querySelector(`[data-testid="${testId}"]`))
          rec.seenAt = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }, testId);
  }

  async frames(): Promise<{ gaps: [at: number, gap: number][]; seenAt: number | null }> {
    return this.page.evaluate(() => (window as unknown as FrameRecording).__frames!);
  }

  /** The page's clock (performance.now), to line events up with the frame recording. */
  async now(): Promise<number> {
    return this.page.evaluate(() => performance.now());
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

interface FrameRecording {
  __frames?: { gaps: [number, number][]; seenAt: number | null };
}
