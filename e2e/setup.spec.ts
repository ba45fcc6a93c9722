import { expect, test } from "@playwright/test";
import { PoolPage } from "./pages/pool.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";

let server: TestServer;
let pool: PoolPage;

withTestServer((s) => (server = s));
withPageObject(PoolPage, (p) => (pool = p));
test.beforeEach(() => pool.goto());

test("the first screen names the two things to set up, with a button for each", async ({
  page,
}) => {
  const welcome = pool.byTestId("welcome");
  await expect(welcome).toContainText("Two things to set up first");
  await expect(welcome.getByTestId("setup-conductor")).toContainText("A Conductor");
  await expect(welcome.getByTestId("setup-workers")).toContainText("Workers");
  // Nothing to export yet.
  await expect(pool.byTestId("export-workflow")).toBeDisabled();
  await expect(pool.byTestId("export-run")).toBeDisabled();

  await welcome.getByRole("button", { name: "Add workers" }).click();
  await expect(pool.byTestId("pool-editor")).toBeInViewport();
  await pool.addFromPreset("custom");
  await pool.closeSettings();
  await expect(welcome.getByTestId("setup-workers")).toContainText("1 in the pool");
  await welcome.getByRole("button", { name: "Set up the Conductor" }).click();
  await expect(page.getByTestId("conductor-settings")).toBeInViewport();
  await pool.useRemoteConductor(server.baseURL, "conductor-m");
  await pool.closeSettings();
  await expect(welcome).not.toContainText("Two things to set up first");
});

test("the 'add a worker' notice goes once a worker exists", async () => {
  await pool.byTestId("question").fill("What is 2 + 2?");
  await pool.byTestId("plan").click();
  await expect(pool.byTestId("notice")).toContainText("Add at least one worker");
  await pool.openSettings();
  await pool.addFromPreset("custom");
  await pool.closeSettings();
  await expect(pool.byTestId("notice")).toHaveCount(0);
});

test("workers duplicate; a picked model names an untouched worker; a passed test updates the browser note", async () => {
  server.setDefault("alpha-model", "Hello.");
  server.setDefault("beta-model", "Hello.");
  await pool.openSettings();
  const card = await pool.addFromPreset("custom");
  await pool.configure(0, { baseURL: server.baseURL, model: "" });
  const name = (await pool.names())[0]!;
  expect(name).toMatch(/^Worker \d+$/);
  expect(await pool.fetchModels(0)).toEqual(expect.arrayContaining(["alpha-model", "beta-model"]));
  await card.getByTestId("model-select").selectOption("alpha-model");
  expect(await pool.names()).toEqual(["alpha-model"]);
  // A name the user typed stays.
  await pool.configure(0, { name: "My solver" });
  await card.getByTestId("model-select").selectOption("beta-model");
  expect(await pool.names()).toEqual(["My solver"]);

  expect((await pool.testConnection(0)).outcome).toBe("ok");
  await expect(card.getByTestId("browser-status")).toHaveAttribute("data-status", "tested");
  await expect(card.getByTestId("browser-status")).toContainText("Works from this browser");

  await card.getByTestId("duplicate-worker").click();
  // The copy is named from its model, numbered when that name is taken.
  expect(await pool.names()).toEqual(["My solver", "beta-model"]);
  await card.getByTestId("duplicate-worker").click();
  expect(await pool.names()).toEqual(["My solver", "beta-model", "beta-model 2"]);
  await expect(pool.worker(1).getByTestId("worker-baseurl")).toHaveValue(server.baseURL);
});

test("the Conductor's key label says where the key is kept", async ({ page }) => {
  await pool.openSettings();
  await page.getByTestId("backend-remote").check();
  const label = page.locator("label", { has: page.getByTestId("conductor-key") });
  await expect(label).toContainText("kept in memory only");
  await pool.setRememberKeys(true);
  await expect(label).toContainText("remembered in this browser");
});
