import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { CONDUCTOR_MODEL, QUESTION, scriptPlanAndAnswers } from "./support/scenario.ts";

// What an edit leaves behind: the inspector where a step is picked, the keyboard's place after
// Delete and undo, and undo giving back exactly what was shown (outputs, the previous run).

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

const EXAMPLE = "public/examples/three-step.json";

/** What has keyboard focus: a step node's index, "canvas", "body", or another element's tag. */
const focused = () =>
  studio.page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    const node = el.closest(".react-flow__node")?.querySelector("[data-testid='step-node']");
    if (node) return `step ${node.getAttribute("data-index")}`;
    return el.getAttribute("data-testid") ?? el.tagName;
  });

async function planAndRun() {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  await expect(studio.status(2)).toHaveText(/done/i);
}

test("picking a step while History is open shows the inspector", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.byTestId("open-history").click();
  await expect(studio.byTestId("inspector")).toHaveCount(0);
  await studio.node(1).locator(".step-head").click();
  await expect(studio.byTestId("inspector")).toContainText("Step 2 of 3");
  await expect(studio.byTestId("open-history")).toHaveAttribute("aria-pressed", "false");
});

test("after Delete and after Ctrl+Z the keyboard stays on the canvas, on a neighbouring step", async ({
  page,
}) => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.selectNode(1);
  await page
    .locator(".react-flow__node")
    .filter({ has: studio.node(1) })
    .focus();
  expect(await focused()).toBe("step 1");
  await page.keyboard.press("Delete");
  await expect(studio.nodes()).toHaveCount(2);
  // The step after the deleted one (now step 2, index 1) takes focus.
  await expect.poll(focused).toBe("step 1");
  await page.keyboard.press("Control+z");
  await expect(studio.nodes()).toHaveCount(3);
  await expect.poll(focused).toMatch(/^step \d$/);
  // Keyboard users go on: an undo of an added step, focused, lands on a step again.
  await page.keyboard.press("Control+Shift+z");
  await expect(studio.nodes()).toHaveCount(2);
  await expect.poll(focused).toMatch(/^step \d$/);
});

test("Delete then Undo gives every finished step back its output, done, not stale", async ({
  page,
}) => {
  await planAndRun();
  const outputs = await studio.nodes().getByTestId("step-output").allTextContents();
  await studio.selectNode(0);
  await page.keyboard.press("Delete");
  await expect(studio.nodes()).toHaveCount(2);
  // The judge read the deleted step: stale until undone.
  await expect(studio.status(1)).toHaveText(/stale/i);
  await page.keyboard.press("Control+z");
  await expect(studio.nodes()).toHaveCount(3);
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveText(/done/i);
  expect(await studio.nodes().getByTestId("step-output").allTextContents()).toEqual(outputs);
});

test("Undo right after Import shows the previous run whole, outputs and question", async () => {
  await planAndRun();
  const outputs = await studio.nodes().getByTestId("step-output").allTextContents();
  await studio.importFile(EXAMPLE);
  await expect(studio.byTestId("question")).not.toHaveValue(QUESTION);
  await studio.undo();
  await expect(studio.byTestId("question")).toHaveValue(QUESTION);
  await expect(studio.nodes()).toHaveCount(3);
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveText(/done/i);
  expect(await studio.nodes().getByTestId("step-output").allTextContents()).toEqual(outputs);
  // Redo opens the imported run again.
  await studio.redo();
  await expect(studio.byTestId("question")).not.toHaveValue(QUESTION);
});

test("an export keeps the positions steps were dragged to, and importing it puts them back", async () => {
  await planAndRun();
  await studio.dragNode(0, 180, 90);
  const dragged = await studio.position(0);
  const file = await studio.exportRun();
  // The node's transform shows its position to three decimals.
  const kept = file.json.run.layout?.positions["0"];
  expect(kept?.x).toBeCloseTo(dragged.x, 2);
  expect(kept?.y).toBeCloseTo(dragged.y, 2);
  await studio.forgetStoredRuns();
  await studio.importFile({
    name: "run.json",
    mimeType: "application/json",
    buffer: Buffer.from(file.text),
  });
  await expect(studio.nodes()).toHaveCount(3);
  expect(await studio.position(0)).toEqual(dragged);
  // Exported again, it is the same file, byte for byte.
  expect((await studio.exportRun()).text).toBe(file.text);
});

test("undoing past a plan that did not parse shows the Conductor's earlier plan again", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await expect(studio.byTestId("plan-badge")).toBeVisible();
  server.script(CONDUCTOR_MODEL, { content: "I would rather not plan today." });
  await studio.startPlan();
  await expect(studio.byTestId("plan-error")).toBeVisible();
  await expect(studio.nodes()).toHaveCount(0);
  await studio.undo();
  await expect(studio.nodes()).toHaveCount(3);
  await expect(studio.byTestId("plan-error")).toHaveCount(0);
  await expect(studio.byTestId("plan-badge")).toBeVisible();
  await expect(studio.byTestId("conductor-raw")).toContainText("model_id");
});
