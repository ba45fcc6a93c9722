import { expect, test } from "@playwright/test";

test("the studio page loads without errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  expect(errors).toEqual([]);
});
