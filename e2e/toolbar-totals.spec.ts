// Issue 35: the toolbar's totals grow when a run ends (cost, planning and running times); at 1024 px
// they must not wrap onto a new line and push the canvas down.
import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, scriptPlanAndAnswers } from "./support/scenario.ts";

let studio: StudioPage;
withStudio((s) => ({ studio } = s), {
  script: (server) => scriptPlanAndAnswers(server),
});

test("the toolbar keeps its height and the canvas its place when a run ends, at 1024 px", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await studio.ask(QUESTION);
  await studio.plan(3);
  const bar = page.locator(".run-bar");
  const canvas = studio.byTestId("canvas");
  const before = { bar: (await bar.boundingBox())!, canvas: (await canvas.boundingBox())! };
  await studio.run();
  await studio.waitIdle();
  // The totals now carry the run's tokens, cost and both durations.
  await expect(studio.byTestId("totals")).toContainText("running");
  const after = { bar: (await bar.boundingBox())!, canvas: (await canvas.boundingBox())! };
  expect(after.bar.height).toBe(before.bar.height);
  expect(after.canvas.y).toBe(before.canvas.y);
  // The whole text of the totals can be read on hover, however narrow the line.
  const totals = studio.byTestId("totals");
  await totals.hover();
  await expect(totals).toHaveAttribute("title", /running/);
  expect(studio.errors).toEqual([]);
});
