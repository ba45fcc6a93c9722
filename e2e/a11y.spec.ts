import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { seriousViolations } from "./support/axe.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, WORKERS, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s));

for (const theme of ["light", "dark"] as const) {
  test(`the main screen has no serious accessibility violations (${theme})`, async ({ page }) => {
    await studio.useTheme(theme);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("the settings dialog has no serious accessibility violations", async ({ page }) => {
  await studio.byTestId("open-settings").click();
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
  expect(await seriousViolations(page, { include: "[data-testid=settings]" })).toEqual([]);
});

test("a finished run has no serious accessibility violations", async ({ page }) => {
  scriptPlanAndAnswers(server);
  // Long and structured outputs: scrolling boxes, a code block, a table.
  server.setDefault(WORKERS[0].model, "391 = 17 × 23. ".repeat(80));
  server.setDefault(
    WORKERS[2].model,
    "**Not prime.**\n\n```py\nprint(17 * 23)  # 391, and a long comment that scrolls sideways in its box\n```\n\n| p | q |\n|---|---|\n| 17 | 23 |",
  );
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  await expect(studio.byTestId("final-answer")).toBeVisible();
  await studio.selectNode(2);
  expect(await seriousViolations(page)).toEqual([]);
});
