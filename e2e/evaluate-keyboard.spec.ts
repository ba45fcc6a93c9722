/**
 * The Evaluate view owns the keyboard: the studio under it is inert, focus comes in when it opens
 * (from the keyboard too) and goes back when it closes, and the studio's shortcuts do nothing
 * there (Ctrl+Enter once ran the hidden canvas's workflow, a paid run nobody saw).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, WORKERS, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: HistoryPage;
withStudio((s) => ({ server, studio } = s), {
  as: HistoryPage,
  script: (s) => scriptPlanAndAnswers(s),
  ask: QUESTION,
  plan: 3,
});

const workerModels = new Set<string>(WORKERS.map((w) => w.model));
/** The chat calls the test server received for the pool's workers (not the Conductor). */
const workerCalls = () =>
  server.requests.filter(
    (r) =>
      r.path.endsWith("/chat/completions") &&
      workerModels.has((r.body as { model?: string } | null)?.model ?? ""),
  ).length;

const inEvaluate = (page: Page) =>
  page.evaluate(
    () => !!document.querySelector("[data-testid=evaluate-view]")?.contains(document.activeElement),
  );

test("Evaluate opened from the keyboard takes focus, keeps Tab inside, and Ctrl+Enter there runs nothing", async ({
  page,
}) => {
  const open = studio.byTestId("open-evaluate");
  await open.focus();
  await page.keyboard.press("Enter");
  await expect(studio.byTestId("evaluate-view")).toBeVisible();
  await expect.poll(() => inEvaluate(page)).toBe(true);

  // Every Tab stop, forwards and back, is inside Evaluate.
  const outside: string[] = [];
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(key);
      if (!(await inEvaluate(page)))
        outside.push(
          await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? ""),
        );
    }
  }
  expect(outside).toEqual([]);

  // Ctrl+Enter on an Evaluate control: the canvas's planned workflow is not run.
  await studio.byTestId("evaluate-close").focus();
  await page.keyboard.press("Control+Enter");
  await page.keyboard.press("Control+Enter");
  await studio.byTestId("evaluate-close").click();
  await expect(studio.byTestId("evaluate-view")).toHaveCount(0);
  await expect(open).toBeFocused();
  await studio.waitIdle();
  expect(workerCalls()).toBe(0);

  // The same keys in the studio do run it (so the count above could have seen the calls).
  await page.keyboard.press("Control+Enter");
  await expect.poll(workerCalls).toBe(3);
  await studio.waitIdle();
});

test("Shift+Tab from Back to the studio cannot reach History's Delete under Evaluate", async ({
  page,
}) => {
  await studio.run();
  await studio.waitIdle();
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(1);
  await studio.byTestId("open-evaluate").click();
  const back = studio.byTestId("evaluate-close");
  await back.focus();
  await page.keyboard.press("Shift+Tab");
  expect(await inEvaluate(page)).toBe(true);
  await expect(studio.byTestId("history-delete").first()).not.toBeFocused();
  // The studio under it is out of reach altogether: inert.
  expect(
    await studio
      .byTestId("history-delete")
      .first()
      .evaluate((el) => el.closest("[inert]") !== null),
  ).toBe(true);
  await page.keyboard.press("Escape");
  await expect(studio.byTestId("evaluate-view")).toHaveCount(0);
  await expect(studio.entries()).toHaveCount(1);
});
