import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import { PoolPage } from "./pages/pool.ts";

test("Escape gives focus back to Settings even when the button that opened it is gone", async ({
  page,
}) => {
  const pool = new PoolPage(page);
  await pool.goto();
  const evaluate = new EvaluatePage(page);
  await evaluate.open();
  await evaluate.pickSample("math");
  // No workers yet: the Evaluate view offers Settings; adding one there removes that offer.
  await evaluate.byTestId("eval-open-settings").click();
  await expect(pool.byTestId("settings")).toBeVisible();
  await pool.addFromPreset("openai");
  await page.keyboard.press("Escape");
  await expect(pool.byTestId("settings")).toBeHidden();
  await expect(evaluate.byTestId("eval-open-settings")).toHaveCount(0);
  await expect(pool.byTestId("open-settings")).toBeFocused();
  expect(pool.errors).toEqual([]);
});
