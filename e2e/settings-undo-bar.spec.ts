import { expect, test } from "@playwright/test";
import { PoolPage } from "./pages/pool.ts";
import { StudioPage } from "./pages/studio.ts";
import { WORKERS } from "./support/scenario.ts";

// The pool's Undo bar stays at the bottom of Settings while it scrolls; a field of the last worker
// card that takes focus (Tab) must be scrolled clear of it, not left underneath.

test("the Settings undo bar never covers the field of the last worker card that has focus", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  const studio = new StudioPage(page);
  const pool = new PoolPage(page);
  await studio.seed("http://127.0.0.1:9/v1", [
    ...WORKERS,
    ...WORKERS.map((w) => ({ ...w, name: `${w.name} 2` })),
  ]);
  await studio.goto();
  await pool.openSettings();
  // Removing a worker (no step uses it) offers Undo.
  await pool.worker(0).getByTestId("remove-worker").click();
  const bar = studio.byTestId("pool-undo-bar");
  await expect(bar).toBeVisible();
  const cards = studio.byTestId("worker-row");
  await expect(cards).toHaveCount(5);
  // Keyboard focus moves into the last card's fields, one after the other.
  for (const id of ["worker-name", "worker-model", "test-connection"]) {
    const field = cards.last().getByTestId(id);
    await field.focus();
    await expect(field).toBeFocused();
    const [f, b] = [await field.boundingBox(), await bar.boundingBox()];
    expect(f && b && f.y + f.height <= b.y + 0.5, `${id} is under the undo bar`).toBe(true);
  }
  // Scrolled to the last card's end, the whole card shows above the bar.
  await cards.last().getByTestId("test-connection").scrollIntoViewIfNeeded();
  await studio.byTestId("settings").evaluate((el) => el.scrollBy(0, 40));
  const [card, b] = [await cards.last().boundingBox(), await bar.boundingBox()];
  expect(card && b && card.y + card.height <= b.y + 0.5, "the last card is under the bar").toBe(
    true,
  );
  await page.screenshot({ path: test.info().outputPath("undo-bar.png") });
  expect(studio.errors).toEqual([]);
});
