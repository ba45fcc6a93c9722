import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import { PoolPage } from "./pages/pool.ts";

test("Escape gives focus back to Evaluate even when the button that opened Settings is gone", async ({
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
  // The header's Settings button lies under Evaluate (inert): focus goes back into Evaluate.
  await expect
    .poll(() =>
      page.evaluate(() =>
        document.querySelector("[data-testid=evaluate-view]")?.contains(document.activeElement),
      ),
    )
    .toBe(true);
  expect(pool.errors).toEqual([]);
});
