import { expect, test } from "@playwright/test";
import { StudioPage } from "./pages/studio.ts";
import { SETTINGS_KEY } from "./pages/settings.ts";

// One bad stored field costs only itself: the studio says once which setting it reset, keeps
// the rest (the pool here), and writes the repaired settings back so the next load is quiet.
test("a stored setting that does not read is reset alone and reported once", async ({ page }) => {
  const studio = new StudioPage(page);
  const settings = {
    pool: [{ id: "w0", name: "Kept Worker", baseURL: "http://127.0.0.1:9/v1", model: "kept" }],
    conductor: { backend: "remote", model: "conductor-7b", rounds: "lots-of-rounds" },
    maxSteps: 5,
  };
  // Seeded on the first load only: the reload must read what the studio wrote back.
  await page.addInitScript(
    ([key, value]) => {
      if (sessionStorage.getItem("seeded")) return;
      sessionStorage.setItem("seeded", "1");
      localStorage.setItem(key, value);
    },
    [SETTINGS_KEY, JSON.stringify(settings)] as const,
  );
  await studio.goto();
  const report = studio.byTestId("settings-report");
  await expect(report).toHaveAttribute("role", "alert");
  await expect(report).toContainText("reset to its default: conductor.rounds");
  await expect(report).toContainText("Every other setting was kept.");
  const stored = await page.evaluate((key) => localStorage.getItem(key), SETTINGS_KEY);
  expect(stored).toContain("Kept Worker");
  expect(stored).not.toContain("lots-of-rounds");
  await report.getByRole("button", { name: "Dismiss" }).click();
  await expect(report).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  await expect(studio.byTestId("settings-report")).toHaveCount(0);
  const again = await page.evaluate((key) => localStorage.getItem(key), SETTINGS_KEY);
  expect(again).toContain("Kept Worker");
  expect(studio.errors).toEqual([]);
});
