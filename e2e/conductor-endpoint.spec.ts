import { expect, test } from "@playwright/test";
import { PoolPage } from "./pages/pool.ts";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { CONDUCTOR_MODEL, QUESTION, callsTo, scriptPlan } from "./support/scenario.ts";

// The remote Conductor's settings have what a worker card has: Fetch models and Test connection,
// with its key sent only to its own endpoint. A Conductor that refuses the key points at no raw
// output that does not exist.
const KEY = "sk-conductor-0123456789";
const BIG = "conductor-32b-test";

let server: TestServer;
let studio: StudioPage;
let pool: PoolPage;
withStudio(
  (s) => {
    ({ server, studio } = s);
    pool = new PoolPage(studio.page);
  },
  {
    server: { keys: { [CONDUCTOR_MODEL]: KEY, [BIG]: KEY }, models: [BIG] },
    script: (s) => {
      scriptPlan(s);
      s.setDefault(BIG, "ok");
    },
  },
);

test("the Conductor's settings fetch the endpoint's models and test the connection, key included", async ({
  page,
}) => {
  await pool.openSettings();
  const settings = pool.byTestId("conductor-settings");
  await settings.getByTestId("fetch-models").click();
  const offered = settings.getByTestId("model-select");
  await expect(offered.locator("option", { hasText: BIG })).toHaveCount(1);
  await offered.selectOption(BIG);
  await expect(settings.getByTestId("conductor-model")).toHaveValue(BIG);

  // Without its key the endpoint refuses, and the result says so.
  await settings.getByTestId("test-connection").click();
  const result = settings.getByTestId("connection-result");
  await expect(result).toHaveAttribute("data-outcome", "auth");
  await settings.getByTestId("conductor-key").fill(KEY);
  await settings.getByTestId("test-connection").click();
  await expect(result).toHaveAttribute("data-outcome", "ok");
  const tested = callsTo(server, BIG).at(-1)!;
  expect(tested.headers.authorization).toBe(`Bearer ${KEY}`);
  await page.screenshot({ path: test.info().outputPath("conductor-settings.png") });
});

test("a Conductor that refuses the key: the plan error points at no raw output", async ({
  page,
}) => {
  await studio.ask(QUESTION);
  await studio.startPlan();
  const error = studio.byTestId("plan-error");
  await expect(error).toBeVisible();
  await expect(error).toContainText(/key/i);
  await expect(studio.byTestId("plan-error-next")).toContainText("The Conductor wrote nothing");
  await expect(error).not.toContainText("raw output below");
  await page.screenshot({ path: test.info().outputPath("conductor-401.png") });
});
