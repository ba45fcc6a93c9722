import { expect, test } from "@playwright/test";
import { z } from "zod";
import type { ExportedFile } from "./pages/exports.ts";
import { EXPORT_FORMAT, EXPORT_VERSION } from "../src/engine/run/export.ts";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  QUESTION,
  WORKERS,
  scriptPlanAndAnswers,
} from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), {
  script: scriptPlanAndAnswers,
  ask: QUESTION,
  plan: 3,
});

const asUpload = (file: ExportedFile) => ({
  name: file.name,
  mimeType: "application/json",
  buffer: Buffer.from(file.text),
});

const answerOf = (i: number) => `Answer from ${WORKERS[i]!.name}.`;

test("an exported run, imported after a reload, shows the same steps, outputs and statuses", async ({
  page,
}) => {
  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText(answerOf(2));
  await studio.waitIdle();
  const exported = await studio.exportRun();
  expect(exported.name).toMatch(/^conductor-run-.*\.json$/);
  expect(exported.json.format).toBe(EXPORT_FORMAT);
  expect(exported.json.version).toBe(EXPORT_VERSION);
  expect(exported.json.run.question).toBe(QUESTION);
  expect(exported.json.run.rounds[0]?.steps.map((s) => s.output)).toEqual([0, 1, 2].map(answerOf));
  expect(exported.text).toContain('  "format": "conductor-studio/run"');

  // A reload brings the same run back (it is stored); a fresh profile has nothing until import.
  await page.reload();
  await expect(studio.nodes()).toHaveCount(3);
  await expect(studio.status(2)).toHaveAttribute("data-status", "done");
  await studio.forgetStoredRuns();
  await expect(studio.nodes()).toHaveCount(0);
  await studio.importFile(asUpload(exported));

  await expect(studio.nodes()).toHaveCount(3);
  for (const [i, subtask] of ATTEMPTS_THEN_JUDGE.subtasks.entries()) {
    await expect(studio.subtask(i)).toHaveText(subtask);
    await expect(studio.status(i)).toHaveAttribute("data-status", "done");
    await expect(studio.output(i)).toHaveText(answerOf(i));
    await expect(studio.workerName(i)).toHaveText(WORKERS[i]!.name);
  }
  await expect(studio.byTestId("question")).toHaveValue(QUESTION);
  await expect(studio.byTestId("final-answer")).toHaveText(answerOf(2));
  await expect(studio.byTestId("conductor-raw")).toContainText("access_list");
  // The import confirms what it opened, and has nothing else to say.
  await expect(studio.byTestId("notice")).toHaveText(
    /^Opened .+\.json: ".+" \(3 steps\), now stored in History\.×$/,
  );
  // Importing made no model call.
  expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(4);
  // What is on screen exports to the same steps.
  const again = await studio.exportRun();
  expect(again.json.run.rounds).toEqual(exported.json.run.rounds);
});

test("an exported workflow, re-imported (by the picker or a drop), gives the same graph", async ({
  page,
}) => {
  // Make the graph the user's own first: a drawn edge and another worker.
  await studio.connect(0, 1);
  await expect.poll(() => studio.accessLists()).toEqual([[], [0], "all"]);
  await studio.selectNode(2);
  await studio.byTestId("worker-select").selectOption("w0");
  await expect(studio.workerName(2)).toHaveText(WORKERS[0].name);
  const exported = await studio.exportWorkflow();
  const lists = exported.json.run.rounds[0]?.lists;
  expect(lists).toEqual({
    model_id: [0, 1, 0],
    subtasks: ATTEMPTS_THEN_JUDGE.subtasks,
    access_list: [[], [0], "all"],
    workerIds: ["w0", "w1", "w2"],
  });

  // A reload brings the draft back exactly; a fresh profile has nothing until the import.
  await page.reload();
  await expect(studio.nodes()).toHaveCount(3);
  expect((await studio.exportWorkflow()).json.run.rounds[0]?.lists).toEqual(lists);
  await studio.forgetStoredRuns();
  await expect(studio.nodes()).toHaveCount(0);
  await studio.importFile(asUpload(exported));
  await expect(studio.nodes()).toHaveCount(3);
  expect((await studio.exportWorkflow()).json.run.rounds[0]?.lists).toEqual(lists);
  await expect(await studio.edge(0, 1)).toHaveClass(/edge-direct/);
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "idle");

  await studio.forgetStoredRuns();
  await expect(studio.nodes()).toHaveCount(0);
  await studio.dropFile(exported.name, exported.text);
  await expect(studio.nodes()).toHaveCount(3);
  expect((await studio.exportWorkflow()).json.run.rounds[0]?.lists).toEqual(lists);
  await expect(studio.byTestId("question")).toHaveValue(QUESTION);
});

test("a bad file gets a clear message and leaves the canvas as it was", async () => {
  const before = await studio.exportWorkflow();
  const { raw } = before;
  const run = z.record(z.string(), z.unknown()).parse(raw.run);
  const bad = [
    { name: "notes.json", text: "model_id = [0, 1, 2] -- not JSON", says: ["not valid JSON"] },
    {
      name: "flow.json",
      text: JSON.stringify({ nodes: [], edges: [] }),
      says: ["not a Conductor Studio export"],
    },
    {
      name: "future.json",
      text: JSON.stringify({ ...raw, version: 99 }),
      says: ["newer version of Conductor Studio", "version 99"],
    },
    {
      name: "broken.json",
      text: JSON.stringify({ ...raw, run: { ...run, rounds: "three" } }),
      says: ["does not match the export format", "rounds"],
    },
  ];
  for (const file of bad) {
    await studio.importFile({
      name: file.name,
      mimeType: "application/json",
      buffer: Buffer.from(file.text),
    });
    const notice = studio.byTestId("notice");
    await expect(notice).toContainText(`Could not open ${file.name}`);
    for (const words of file.says) await expect(notice).toContainText(words);
    await expect(studio.nodes()).toHaveCount(3);
    for (const [i, subtask] of ATTEMPTS_THEN_JUDGE.subtasks.entries())
      await expect(studio.subtask(i)).toHaveText(subtask);
  }
  await studio.dropFile("dropped.json", "{ nope");
  await expect(studio.byTestId("notice")).toContainText("Could not open dropped.json");
  await expect(studio.nodes()).toHaveCount(3);
  const after = await studio.exportWorkflow();
  expect(after.json.run.rounds[0]?.lists).toEqual(before.json.run.rounds[0]?.lists);
});
