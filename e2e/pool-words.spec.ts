import { expect, test } from "@playwright/test";
import { PoolPage } from "./pages/pool.ts";

// What Settings says follows what the user did: a duplicate's name follows its model, the
// provider follows the base URL, undo names fields as the form does, and a first visit shows
// the Conductor's defaults as defaults.

let pool: PoolPage;
test.beforeEach(async ({ page }) => {
  pool = new PoolPage(page);
  await pool.goto();
});
test.afterEach(() => {
  expect(pool.errors).toEqual([]);
});

test("a duplicated worker's name follows its model; a typed name stays", async () => {
  await pool.openSettings();
  await pool.addFromPreset("openai");
  await pool.worker(0).getByTestId("duplicate-worker").click();
  await expect(pool.workers()).toHaveCount(2);
  expect(await pool.names()).toEqual(["gpt-5", "gpt-5 2"]);
  await pool.worker(1).getByTestId("worker-model").fill("gpt-5-mini");
  expect(await pool.names()).toEqual(["gpt-5", "gpt-5-mini"]);
  await pool.worker(0).getByTestId("worker-name").fill("Planner");
  await pool.worker(0).getByTestId("worker-model").fill("gpt-5-nano");
  expect(await pool.names()).toEqual(["Planner", "gpt-5-mini"]);
});

test("the provider follows a base-URL edit, and undo names the field in the form's words", async () => {
  await pool.openSettings();
  const card = await pool.addFromPreset("anthropic");
  await card.getByTestId("worker-baseurl").fill("http://127.0.0.1:8080/v1");
  await expect(card.getByTestId("worker-provider")).toHaveValue("custom");
  await expect(card.getByTestId("worker-provider").locator("option:checked")).toHaveText(
    "Custom OpenAI-compatible",
  );
  await expect(pool.byTestId("pool-undo")).toHaveText(
    /Undo: edit base URL[a-z ,]* and provider of “/,
  );
  await expect(pool.byTestId("pool-undo")).not.toHaveText(/baseURL|plainHeaders|,headers/);
  await card.getByTestId("worker-baseurl").fill("https://api.openai.com/v1");
  await expect(card.getByTestId("worker-provider")).toHaveValue("openai");
});

test("on a first visit, choosing a remote Conductor shows its defaults, nothing marked changed", async () => {
  await pool
    .byTestId("conductor-status")
    .getByRole("button", { name: /remote Conductor/ })
    .click();
  await expect(pool.byTestId("settings")).toBeVisible();
  await expect(pool.byTestId("named-workers-hint")).toContainText("by default");
  await expect(pool.byTestId("named-workers-hint")).not.toContainText("unlike the default");
  await expect(pool.byTestId("named-workers-default")).toHaveCount(0);
});
