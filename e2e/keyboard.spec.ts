import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: HistoryPage;
withStudio((s) => ({ server, studio } = s), { as: HistoryPage });

test("the theme button names the current theme, and its accessible name is its label", async ({
  page,
}) => {
  const button = studio.byTestId("theme-toggle");
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const current = await theme();
  await expect(button).toHaveText(`Theme: ${current}`);
  await expect(page.getByRole("button", { name: `Theme: ${current}` })).toHaveCount(1);
  await button.click();
  const next = current === "dark" ? "light" : "dark";
  await expect.poll(theme).toBe(next);
  await expect(button).toHaveText(`Theme: ${next}`);
});

test("History's Import files… opens the file picker from the keyboard", async ({ page }) => {
  await studio.openHistory();
  const button = studio.byTestId("history-import-button");
  // The list loads after the panel opens and may re-render it: wait until the button holds focus,
  // then press Enter on it (locator.press focuses the button it finds right before the key).
  await button.focus();
  await expect(button).toBeFocused();
  const chooser = page.waitForEvent("filechooser", { timeout: 10_000 });
  await button.press("Enter");
  expect((await chooser).isMultiple()).toBe(true);
});

test("Compare takes focus, closes on Escape and gives focus back", async ({ page }) => {
  scriptPlanAndAnswers(server);
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  scriptPlanAndAnswers(server);
  await studio.ask(`${QUESTION} Again.`);
  await studio.plan(3);
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(2);
  for (const i of [0, 1]) await studio.entry(i).getByTestId("history-select").check();
  const open = studio.byTestId("history-compare");
  await open.click();
  const compare = studio.byTestId("compare");
  await expect(compare).toBeVisible();
  await expect.poll(() => compare.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(compare).toHaveCount(0);
  await expect(open).toBeFocused();
});
