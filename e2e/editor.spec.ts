import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  CONDUCTOR_MODEL,
  QUESTION,
  conductorText,
  scriptPlanAndAnswers,
} from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

/** Three independent attempts: no edges, so drawing one changes the automatic layout. */
const THREE_ALONE = {
  model_id: [0, 1, 2],
  subtasks: ["Attempt one.", "Attempt two.", "Attempt three."],
  access_list: [[], [], []] as number[][],
};

const viewport = (page: import("@playwright/test").Page) =>
  page.locator(".react-flow__viewport").evaluate((el) => (el as HTMLElement).style.transform);

test("after deleting a step, clicking another node fills the inspector", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.selectNode(0);
  await studio.byTestId("inspector").getByRole("button", { name: "Delete" }).click();
  await expect(studio.nodes()).toHaveCount(2);
  await studio.node(1).locator(".step-head").click();
  await expect(studio.byTestId("inspector")).toContainText("Step 2 of 2");
});

test("drawing an edge moves no node and keeps the zoom", async ({ page }) => {
  server.script(CONDUCTOR_MODEL, conductorText(THREE_ALONE));
  await studio.plan(3);
  await studio.settle();
  const before = [await studio.position(0), await studio.position(1), await studio.position(2)];
  const view = await viewport(page);
  await studio.connect(0, 2);
  await expect.poll(async () => (await studio.accessLists())[2]).toEqual([0]);
  await studio.settle();
  expect([await studio.position(0), await studio.position(1), await studio.position(2)]).toEqual(
    before,
  );
  expect(await viewport(page)).toBe(view);
  // Tidy up lays it out anew: the step that now reads another moves right of it.
  await page.getByRole("button", { name: "Tidy up" }).click();
  await expect.poll(async () => (await studio.position(2)).x).toBeGreaterThan(before[2]!.x);
});

test("earlier steps are drawn above later ones in a column", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  const [a, b] = [await studio.position(0), await studio.position(1)];
  expect(a.x).toBe(b.x);
  expect(a.y).toBeLessThan(b.y);
});

test("after a plan fails, the emptied canvas is not left zoomed in on the step it streamed", async ({
  page,
}) => {
  // Step 1 is complete and valid, so it streams onto the canvas; step 2 names no worker.
  const text = conductorText({
    model_id: [0, 9],
    subtasks: ["Attempt it.", "Check it."],
    access_list: [[], [0]],
  });
  // The plan holds once step 1 is complete, until the test has seen it; then the bad step ends it.
  const cut = text.indexOf("[0]]");
  const plan = server.gate("plan");
  server.script(CONDUCTOR_MODEL, {
    chunks: [text.slice(0, cut), text.slice(cut)],
    gate: "plan",
    gateAfter: 1,
  });
  await studio.startPlan();
  await expect(studio.nodes()).toHaveCount(1);
  plan.release();
  await expect(studio.byTestId("plan-error")).toBeVisible();
  await expect(studio.nodes()).toHaveCount(0);
  await expect.poll(() => viewport(page)).toBe("translate(0px, 0px) scale(1)");
});

test("a legend explains the edges, and edges are announced by step number", async ({ page }) => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  const legend = studio.byTestId("edge-legend");
  await expect(legend).toContainText("reads that step's answer");
  await expect(legend).toContainText('reads all earlier steps ("all")');
  await expect(page.locator(".react-flow__edge").first()).toHaveAttribute(
    "aria-label",
    /^step \d to step \d$/,
  );
  await expect(page.locator('.react-flow__edge[aria-label="step 1 to step 3"]')).toHaveCount(1);
});

test("a keyboard-focused node shows a focus ring; splitters move from the keyboard", async ({
  page,
}) => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  const wrapper = page.locator(".react-flow__node").filter({ has: studio.node(0) });
  await wrapper.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(wrapper).toBeFocused();
  const outline = await studio.node(0).evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).toBe("solid");

  const splitter = page.getByRole("separator", { name: "Resize the left panel" });
  const width = async () =>
    (await page.locator("aside.column.left").boundingBox())?.width ?? Number.NaN;
  const start = await width();
  await splitter.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect.poll(width).toBe(start + 32);
  await expect(splitter).toHaveAttribute("aria-valuenow", String(Math.round(start + 32)));
});

test("the settings dialog takes focus, keeps it, closes on Escape and gives it back", async ({
  page,
}) => {
  const opener = studio.byTestId("open-settings");
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeFocused();
  // Tab from the last control wraps to the first; Shift+Tab from the first to the last.
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});
