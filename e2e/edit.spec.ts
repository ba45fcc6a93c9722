import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { ATTEMPTS_THEN_JUDGE, CHAIN, QUESTION, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

const [FIRST, SECOND] = ATTEMPTS_THEN_JUDGE.subtasks;

test("dragging from one step's handle to another's gives the later step access to it", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  expect(await studio.accessLists()).toEqual([[], [], "all"]);
  await expect(await studio.edge(0, 1)).toHaveCount(0);
  await expect(await studio.edge(0, 2)).toHaveClass(/edge-bundle/);

  await studio.connect(0, 1);
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], "all"]);
  await expect(await studio.edge(0, 1)).toHaveClass(/edge-direct/);

  await studio.undo();
  await expect.poll(() => studio.accessLists()).toEqual([[], [], "all"]);
  await expect(await studio.edge(0, 1)).toHaveCount(0);
  await studio.redo();
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], "all"]);
  await expect(await studio.edge(0, 1)).toHaveCount(1);
});

test("an edge from a later step to an earlier one reorders the steps, and undo restores them", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);

  await studio.connect(1, 0);
  // The step that is read moves first; the one that reads it now sees it.
  await expect(studio.subtask(0)).toHaveText(SECOND!);
  await expect(studio.subtask(1)).toHaveText(FIRST!);
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], "all"]);
  await expect(studio.byTestId("notice")).toHaveCount(0);

  await studio.undo();
  await expect(studio.subtask(0)).toHaveText(FIRST!);
  await expect(studio.subtask(1)).toHaveText(SECOND!);
  await expect.poll(() => studio.accessLists()).toEqual([[], [], "all"]);
});

test("an edge that would make two steps read each other is refused with a notice", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.connect(0, 1);
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], "all"]);

  await studio.connect(1, 0);
  await expect(studio.byTestId("notice")).toContainText("That edge cannot be drawn");
  await expect(studio.byTestId("notice")).toContainText("already reads");
  expect(await studio.accessLists()).toEqual([[], [0], "all"]);
  await expect(studio.subtask(0)).toHaveText(FIRST!);
  // The refusal added no undo step: one undo removes the first edge.
  await studio.undo();
  await expect.poll(() => studio.accessLists()).toEqual([[], [], "all"]);
});

test("selecting an edge and pressing Delete or Backspace removes that access", async ({ page }) => {
  scriptPlanAndAnswers(server, CHAIN);
  await studio.plan(3);
  expect(await studio.accessLists()).toEqual([[], [0], [1]]);

  await studio.clickEdge(0, 1);
  await page.keyboard.press("Delete");
  await expect.poll(() => studio.accessLists()).toEqual([[], [], [1]]);
  await expect(studio.nodes()).toHaveCount(3);
  await studio.undo();
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], [1]]);
  await expect(await studio.edge(0, 1)).toHaveCount(1);

  await studio.clickEdge(1, 2);
  await page.keyboard.press("Backspace");
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], []]);
  await expect(studio.nodes()).toHaveCount(3);
  await studio.undo();
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], [1]]);
});

test("changing a step's worker in the inspector shows on the node; undo and redo", async ({
  page,
}) => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.selectNode(1);
  await expect(studio.byTestId("worker-select")).toHaveValue("w1");

  await studio.byTestId("worker-select").selectOption("w2");
  await expect(studio.workerName(1)).toHaveText("Judge Qwen");
  await studio.undo();
  await expect(studio.workerName(1)).toHaveText("Checker Claude");
  await expect(studio.byTestId("worker-select")).toHaveValue("w1");
  await studio.redo();
  await expect(studio.workerName(1)).toHaveText("Judge Qwen");

  // Ctrl+Z while typing in the subtask belongs to the text field, not to the graph.
  const input = studio.byTestId("subtask-input");
  await input.click();
  await page.keyboard.press("Control+z");
  await studio.settle();
  await expect(studio.workerName(1)).toHaveText("Judge Qwen");
  await expect(input).toHaveValue(SECOND!);
  // Outside a field the same shortcut undoes the graph. (Chrome's text undo may have moved the
  // focus to another field, so focus a node first.)
  await studio.selectNode(1);
  await page.keyboard.press("Control+z");
  await expect(studio.workerName(1)).toHaveText("Checker Claude");
});

test("editing a subtask updates the node and the worker's message; a burst undoes at once", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.selectNode(0);
  const input = studio.byTestId("subtask-input");
  await expect(input).toHaveValue(FIRST!);
  await expect(studio.byTestId("worker-preview")).toContainText(`Your assigned subtask: ${FIRST!}`);

  const typed = "Find the smallest prime factor of 391.";
  await input.click();
  await input.press("Control+a");
  await input.pressSequentially(typed);
  await input.blur();
  await expect(studio.subtask(0)).toHaveText(typed);
  await expect(studio.byTestId("worker-preview")).toContainText(`Your assigned subtask: ${typed}`);
  await expect(studio.byTestId("worker-preview")).toContainText(`<overall_task>\n${QUESTION}`);

  // A second burst, after the blur, is a separate undo step.
  await input.click();
  await input.press("End");
  await input.pressSequentially(" Show it.");
  await input.blur();
  await expect(studio.subtask(0)).toHaveText(`${typed} Show it.`);

  await studio.undo();
  await expect(studio.subtask(0)).toHaveText(typed);
  await expect(input).toHaveValue(typed);
  await studio.undo();
  await expect(studio.subtask(0)).toHaveText(FIRST!);
  await expect(studio.byTestId("worker-preview")).toContainText(`Your assigned subtask: ${FIRST!}`);
  await studio.redo();
  await expect(studio.subtask(0)).toHaveText(typed);
});

test("deleting a step with the Delete key and undoing it restores the workflow exactly", async ({
  page,
}) => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  expect(await studio.accessLists()).toEqual([[], [], "all"]);

  await studio.selectNode(1);
  await page.keyboard.press("Delete");
  await expect(studio.nodes()).toHaveCount(2);
  expect(await studio.accessLists()).toEqual([[], "all"]);

  await studio.undo();
  await expect(studio.nodes()).toHaveCount(3);
  // Step 3 reads every earlier step again, step 2 included: not only step 1.
  await expect.poll(() => studio.accessLists()).toEqual([[], [], "all"]);
  await expect(await studio.edge(1, 2)).toHaveClass(/edge-bundle/);
  await expect(studio.subtask(1)).toHaveText(SECOND!);
  await studio.redo();
  await expect(studio.nodes()).toHaveCount(2);
  await expect.poll(() => studio.accessLists()).toEqual([[], "all"]);
});
