/**
 * Workers with no price: their cost is unknown, never $0, in the toolbar, on every node and in
 * History (the same walk over the record's calls counts the unpriced ones).
 */
import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import { storeSettings, storedWorker } from "./pages/settings.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { CONDUCTOR_MODEL, QUESTION, WORKERS, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

test("a run on workers without a price shows its cost as unknown, not $0", async ({ page }) => {
  const studio = new HistoryPage(page);
  scriptPlanAndAnswers(server);
  await storeSettings(page, {
    pool: WORKERS.map((w, i) => storedWorker(i, { ...w, kind: "openai", baseURL: server.baseURL })),
    conductor: { backend: "remote", baseURL: server.baseURL, model: CONDUCTOR_MODEL },
  });
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  // Nowhere on screen (toolbar, nodes, groups) does an unknown cost read as $0.
  await expect(studio.byTestId("app")).not.toContainText("$0");
  await expect(studio.byTestId("totals-cost")).toHaveText("cost unknown");
  await expect(studio.byTestId("step-cost")).toHaveText([
    "cost unknown",
    "cost unknown",
    "cost unknown",
  ]);
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(1);
  await expect(studio.entry(0).getByTestId("history-cost")).toHaveText("cost unknown");
  expect(studio.errors).toEqual([]);
});
