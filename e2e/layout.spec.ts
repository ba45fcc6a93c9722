import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Asserts that an element is shown whole inside the window, not cut off at either side. */
async function expectInside(page: Page, testId: string) {
  const width = page.viewportSize()!.width;
  const el = page.getByTestId(testId);
  await expect(el).toBeVisible();
  await expect
    .poll(
      async () => {
        const box = await el.boundingBox();
        return !!box && box.x >= 0 && box.x + box.width <= width + 0.5;
      },
      { message: `${testId} inside 0..${width}` },
    )
    .toBe(true);
}

const HEADER = ["open-history", "open-settings", "theme-toggle", "import", "export-run"];

for (const width of [1024, 800]) {
  test(`at ${width} px the studio fits: nothing scrolls sideways or is cut off`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 700 });
    scriptPlanAndAnswers(server);
    await studio.plan(3);
    expect(await scrollsSideways(page)).toBe(false);
    for (const id of [...HEADER, "run", "canvas"]) await expectInside(page, id);

    // The inspector is a toggle (or a column) that shows the selected step whole.
    await studio.selectNode(1);
    await expectInside(page, "inspector");
    await page.screenshot({ path: info.outputPath(`studio-${width}.png`) });
    expect(await scrollsSideways(page)).toBe(false);

    // History opens whole too, and closes back to the canvas.
    await studio.byTestId("open-history").click();
    await expectInside(page, "history-panel");
    expect(await scrollsSideways(page)).toBe(false);
    await studio.byTestId("open-history").click();
    await expect(studio.byTestId("history-panel")).toHaveCount(0);

    // The question box stays reachable (a column, or a toggle at narrow widths).
    if (!(await studio.byTestId("question").isVisible()))
      await studio.byTestId("toggle-left").click();
    await expectInside(page, "question");
    await expectInside(page, "plan");
  });
}
