import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  conductorText,
  piecesOf,
  scriptPlanAndAnswers,
} from "./support/scenario.ts";
import type { PlanLists } from "./support/scenario.ts";
import { canvasGeometry, edgesUnderNodes } from "./support/geometry.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

test("the Conductor's plan streams into the panel and its steps appear on the canvas", async ({
  page,
}) => {
  const text = conductorText(ATTEMPTS_THEN_JUDGE);
  const listsAt = text.indexOf("model_id");
  // Reasoning in 8-character chunks, the lists in 2-character chunks: steps complete one by one.
  const chunks = [...piecesOf(text.slice(0, listsAt), 8), ...piecesOf(text.slice(listsAt), 2)];
  // The plan holds after its first chunk until the test has seen it under way.
  const underWay = server.gate("plan");
  server.script(CONDUCTOR_MODEL, { chunks, chunkDelayMs: 12, gate: "plan", gateAfter: 1 });

  await studio.startSampling();
  await studio.startPlan();
  await underWay.reached();
  await expect(studio.byTestId("stop-plan")).toBeVisible();
  underWay.release();
  await studio.planned(3);

  await expect(studio.byTestId("conductor-raw")).toContainText('access_list = [[], [], ["all"]]');
  expect(await studio.byTestId("conductor-raw").textContent()).toBe(text);
  await expect(page.getByRole("region", { name: "Conductor" })).toContainText("plan parsed");

  const samples = await studio.samples();
  const partial = new Set(
    samples.filter((s) => s.raw > 0 && s.raw < text.length).map((s) => s.raw),
  );
  expect(partial.size, "the raw text grew in many steps").toBeGreaterThan(10);
  expect(
    samples.some((s) => s.nodes.length > 0 && s.raw < text.length),
    "a step appeared before the Conductor finished writing",
  ).toBe(true);

  for (const [i, subtask] of ATTEMPTS_THEN_JUDGE.subtasks.entries())
    await expect(studio.subtask(i)).toHaveText(subtask);
  await expect(studio.workerName(0)).toHaveText("Solver GPT");
  await expect(studio.workerName(2)).toHaveText("Judge Qwen");
  // Only the last step is marked as the one whose answer goes to the user.
  await expect(studio.node(2)).toHaveClass(/\blast\b/);
  await expect(studio.node(2)).toContainText("answer to the user");
  await expect(studio.node(0)).not.toContainText("answer to the user");
  await expect(studio.node(1)).not.toHaveClass(/\blast\b/);
  expect(await studio.accessLists()).toEqual([[], [], "all"]);
});

test("an unparseable plan shows its error code and keeps the raw text, with no nodes", async ({
  page,
}) => {
  const full = conductorText(ATTEMPTS_THEN_JUDGE);
  // Cut off inside the subtasks list, as a Conductor that ran out of tokens would be.
  const truncated = full.slice(0, full.indexOf("Independently") + 20);
  server.script(CONDUCTOR_MODEL, { chunks: piecesOf(truncated, 6), chunkDelayMs: 5 });

  await studio.startPlan();
  const error = studio.byTestId("plan-error");
  await expect(error).toBeVisible();
  await expect(error).toContainText("could not be read");
  // The badge says it in words; the code is in its tooltip.
  const badge = page.getByRole("region", { name: "Conductor" }).locator(".badge-failed");
  await expect(badge).toHaveText("could not read the plan");
  await expect(badge).toHaveAttribute("title", "Error code: unparseable_list");
  expect(await studio.byTestId("conductor-raw").textContent()).toBe(truncated);
  await expect(studio.byTestId("notice")).toContainText("plan could not be used");
  await expect(studio.nodes()).toHaveCount(0);
  await expect(studio.byTestId("run")).toBeDisabled();
  // The step that streamed in before the failure was fitted to the view; the empty canvas is back
  // at the natural zoom, not left zoomed in on nothing.
  await expect(page.locator(".react-flow__viewport")).toHaveCSS(
    "transform",
    "matrix(1, 0, 0, 1, 0, 0)",
  );
});

test("dragging a node moves it; undo and redo move it back and forth, one step per drag", async ({
  page,
}) => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  const start = await studio.position(0);

  await studio.dragNode(0, 160, 120);
  await expect.poll(() => studio.position(0)).not.toEqual(start);
  const moved = await studio.position(0);
  expect(moved.x - start.x).toBeGreaterThan(40);
  expect(moved.y - start.y).toBeGreaterThan(30);
  // Other nodes stay where they were.
  const other = await studio.position(1);

  // One undo step for the whole drag (12 intermediate mouse moves): back to the start exactly.
  await page.keyboard.press("Control+z");
  await expect.poll(() => studio.position(0)).toEqual(start);
  await page.keyboard.press("Control+Shift+z");
  await expect.poll(() => studio.position(0)).toEqual(moved);
  await studio.undo();
  await expect.poll(() => studio.position(0)).toEqual(start);
  await page.keyboard.press("Control+y");
  await expect.poll(() => studio.position(0)).toEqual(moved);
  expect(await studio.position(1)).toEqual(other);

  // A second drag of the same node is its own undo step.
  await studio.dragNode(0, 0, 100);
  await expect.poll(async () => (await studio.position(0)).y).toBeGreaterThan(moved.y + 30);
  await studio.undo();
  await expect.poll(() => studio.position(0)).toEqual(moved);
  await studio.undo();
  await expect.poll(() => studio.position(0)).toEqual(start);
  // A drag changes no step: the plan's lists are intact.
  expect(await studio.accessLists()).toEqual([[], [], "all"]);
});

/** A chain, then a final step that reads "all": drawn straight, its edges run under steps 2-4. */
const CHAIN_THEN_ALL: PlanLists = {
  model_id: [0, 1, 2, 0, 1],
  subtasks: [
    "Factor 391 by trial division.",
    "Check the factors.",
    "Try 17 and 23.",
    "Verify by multiplying.",
    "Give the final answer.",
  ],
  access_list: [[], [0], [1], [2], "all"],
};

test("an 'all' step's edges go around the steps between, at the layout and after a drag", async ({
  page,
}) => {
  scriptPlanAndAnswers(server, CHAIN_THEN_ALL);
  await studio.plan(5);
  await studio.settle();
  const laidOut = await canvasGeometry(page);
  expect(laidOut.edges.filter((e) => /\bedge-bundle\b/.test(e.className))).toHaveLength(4);
  expect(edgesUnderNodes(laidOut)).toEqual([]);

  // Drag step 3 up onto the straight line from step 1 to step 5 (the user's position is kept).
  const centreY = (b: { y: number; height: number }) => b.y + b.height / 2;
  const before = await studio.position(2);
  await studio.dragNode(2, 0, centreY(laidOut.nodes[1]!) - centreY(laidOut.nodes[3]!));
  await expect.poll(async () => (await studio.position(2)).y).toBeLessThan(before.y - 10);
  await expect.poll(async () => edgesUnderNodes(await canvasGeometry(page))).toEqual([]);
  const moved = await studio.position(2);

  // A detoured edge is still selected by a click on it and removed with Delete; nothing moved.
  await studio.clickEdge(0, 4);
  await page.keyboard.press("Delete");
  await expect.poll(async () => (await studio.accessLists())[4]).toEqual([1, 2, 3]);
  expect(await studio.position(2)).toEqual(moved);
  await expect(page.locator('.react-flow__edge[aria-label="step 2 to step 5"]')).toHaveCount(1);
});
