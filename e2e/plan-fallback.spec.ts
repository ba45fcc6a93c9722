import { expect, test } from "@playwright/test";
import { ConductorPage } from "./pages/conductor.ts";
import { StudioPage } from "./pages/studio.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { CONDUCTOR_MODEL, QUESTION, WORKERS } from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER, CHECKER] = WORKERS;
// A plan cut off mid-list: it never parses, however often it is asked for.
const TRUNCATED = 'model_id = [0, 1]\nsubtasks = ["Factor 391", "Check the';
const callsTo = (model: string) =>
  server.requests.filter((r) => (r.body as ChatBody | undefined)?.model === model).length;

test("Plan falls back to the worker chosen in Conductor settings when the plan fails twice", async ({
  page,
}) => {
  server.setDefault(CONDUCTOR_MODEL, TRUNCATED);
  server.setDefault(CHECKER.model, "391 = 17 × 23, so it is not prime.");
  const studio = new StudioPage(page);
  const conductor = new ConductorPage(page);
  await studio.seed(server.baseURL);
  await studio.goto();
  await conductor.openSettings();
  await studio.byTestId("replan-once").check();
  await studio.byTestId("fallback-worker").selectOption({ label: CHECKER.name });
  await conductor.closeSettings();

  await studio.ask(QUESTION);
  await studio.plan(1);
  // The engine's own re-plan, then the fallback worker alone; nobody else is called.
  expect(callsTo(CONDUCTOR_MODEL)).toBe(2);
  expect(callsTo(CHECKER.model)).toBe(1);
  expect(callsTo(SOLVER.model)).toBe(0);
  await expect(studio.workerName(0)).toHaveText(CHECKER.name);
  await expect(studio.output(0)).toContainText("391 = 17 × 23");
  await expect(studio.byTestId("plan-fallback")).toContainText(
    `The Conductor failed to plan, so the fallback worker ${CHECKER.name} answered the question alone instead`,
  );
  await expect(studio.byTestId("notice")).toContainText(
    `so ${CHECKER.name} answered alone instead, as set in Settings → Conductor.`,
  );
  await page.screenshot({ path: "test-results/plan-fallback.png", fullPage: true });
  expect(studio.errors).toEqual([]);
});

test("without a fallback worker, a failed plan runs nothing and says so", async ({ page }) => {
  server.setDefault(CONDUCTOR_MODEL, TRUNCATED);
  const studio = new StudioPage(page);
  await studio.seed(server.baseURL);
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.startPlan();
  await expect(studio.byTestId("plan-error")).toBeVisible();
  await expect(studio.nodes()).toHaveCount(0);
  await expect(studio.byTestId("plan-fallback")).toHaveCount(0);
  expect(callsTo(CONDUCTOR_MODEL)).toBe(1);
  expect(WORKERS.map((w) => callsTo(w.model))).toEqual([0, 0, 0]);
  expect(studio.errors).toEqual([]);
});
