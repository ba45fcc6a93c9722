import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { UNDO_MS } from "../src/state/slices/history.ts";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, WORKERS, scriptNumberedAnswers, scriptPlan } from "./support/scenario.ts";

let server: TestServer;
let studio: HistoryPage;

withStudio((s) => ({ server, studio } = s), {
  as: HistoryPage,
  script: (s) => {
    scriptPlan(s);
    // Each worker numbers its answers, so the n-th run's outputs all end in "#n.".
    scriptNumberedAnswers(s);
  },
  ask: QUESTION,
  plan: 3,
});

const CHECKER = WORKERS[1].model;

/** Runs the plan `times` times (the first run is the planned run, then re-runs); opens History. */
async function runs(times: number) {
  for (let i = 1; i <= times; i++) {
    await studio.run();
    await expect(studio.byTestId("final-answer")).toContainText(`Judge Qwen answer #${i}.`);
    await studio.waitIdle();
  }
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(times);
}

/** The open run shows the n-th run's final answer and step outputs. */
async function showsRun(n: number) {
  await expect(studio.byTestId("final-answer")).toContainText(`Judge Qwen answer #${n}.`);
  for (const [i, w] of WORKERS.entries())
    await expect(studio.output(i)).toHaveText(`${w.name} answer #${n}.`);
}

async function reloadHistory() {
  await studio.page.reload();
  await expect(studio.page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  await studio.openHistory();
}

test("a renamed run shows its name, keeps it over a reload, and is found by it", async () => {
  await runs(2);
  const [newer, older] = await studio.keys();
  const stored = await studio.storedTexts();
  const NAME = "Prime Check by Trial Division";
  await studio.rename(studio.entryByKey(older!), NAME);
  await expect(studio.title(studio.entryByKey(older!))).toHaveText(NAME);
  await expect(studio.title(studio.entryByKey(newer!))).toHaveText(QUESTION);
  // A name is the user's, beside the run: the stored records are not touched.
  expect((await studio.storedTexts()).sort()).toEqual(stored.sort());

  await reloadHistory();
  await expect(studio.title(studio.entryByKey(older!))).toHaveText(NAME);
  await expect(studio.title(studio.entryByKey(newer!))).toHaveText(QUESTION);

  // Found by its name, in any case, and only it: the question does not say "trial division by".
  await studio.search("prime check");
  await expect.poll(() => studio.keys()).toEqual([older]);
  await studio.search("DIVISION");
  await expect.poll(() => studio.keys()).toEqual([older]);
  await studio.search("no such run");
  await expect(studio.entries()).toHaveCount(0);
  await studio.search("391 a prime");
  await expect.poll(() => studio.keys()).toEqual([newer, older]);
  await studio.search("");
  await expect(studio.entries()).toHaveCount(2);
});

test("a starred run is the one the starred filter shows, over a reload too", async () => {
  await runs(3);
  const [, middle] = await studio.keys();
  const star = studio.star(studio.entryByKey(middle!));
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await star.click();
  await expect(star).toHaveAttribute("aria-pressed", "true");
  await expect(star).toHaveText("★");
  await studio.starredOnly(true);
  await expect.poll(() => studio.keys()).toEqual([middle]);
  await studio.starredOnly(false);
  await expect(studio.entries()).toHaveCount(3);

  await reloadHistory();
  const starred = await studio
    .entries()
    .evaluateAll((rows) =>
      rows.map(
        (r) => r.querySelector('[data-testid="history-star"]')?.getAttribute("aria-pressed") ?? "",
      ),
    );
  expect(starred).toEqual(["false", "true", "false"]);
  await studio.starredOnly(true);
  await expect.poll(() => studio.keys()).toEqual([middle]);
  // Unstarring it leaves the starred filter empty.
  await studio.star(studio.entryByKey(middle!)).click();
  await expect(studio.entries()).toHaveCount(0);
});

test("deleted runs come back whole with Undo; without it they stay gone after the undo window", async ({
  page,
}) => {
  await runs(3);
  const [third, second, first] = (await studio.keys()) as [string, string, string];
  const stored = (await studio.storedTexts()).sort();

  // One run, from its row.
  await studio.entryByKey(first).getByTestId("history-delete").click();
  await expect.poll(() => studio.keys()).toEqual([third, second]);
  await expect(studio.undoNotice()).toHaveText(/^Deleted 1 run\.\s*Undo$/);
  await studio.undoDelete();
  await expect(studio.undoNotice()).toHaveCount(0);
  await expect.poll(() => studio.keys()).toEqual([third, second, first]);
  expect((await studio.storedTexts()).sort()).toEqual(stored);
  await studio.title(studio.entryByKey(first)).click();
  await expect(studio.entryByKey(first)).toHaveClass(/open/);
  await showsRun(1);

  // Two runs, selected.
  await studio.select(studio.entryByKey(first));
  await studio.select(studio.entryByKey(second));
  await studio.deleteSelected();
  await expect.poll(() => studio.keys()).toEqual([third]);
  await expect(studio.undoNotice()).toContainText("Deleted 2 runs.");
  await studio.undoDelete();
  await expect.poll(() => studio.keys()).toEqual([third, second, first]);
  expect((await studio.storedTexts()).sort()).toEqual(stored);
  await studio.title(studio.entryByKey(second)).click();
  await expect(studio.entryByKey(second)).toHaveClass(/open/);
  await showsRun(2);

  // Again, and no Undo: the offer ends UNDO_MS after the delete (the page's clock, paused here).
  await page.clock.install();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await studio.select(studio.entryByKey(first));
  await studio.select(studio.entryByKey(second));
  await studio.deleteSelected();
  await expect.poll(() => studio.keys()).toEqual([third]);
  await expect(studio.undoNotice()).toContainText("Deleted 2 runs.");
  await page.clock.runFor(UNDO_MS - 10);
  await expect(studio.byTestId("history-undo-button")).toBeVisible();
  await page.clock.runFor(10);
  await expect(studio.undoNotice()).toHaveCount(0);
  await page.clock.resume();

  await reloadHistory();
  await expect.poll(() => studio.keys()).toEqual([third]);
  expect(await studio.storedTexts()).toHaveLength(1);
  await studio.openEntry(0);
  await showsRun(3);
});

const NESTED = {
  name: "nested.json",
  mimeType: "application/json",
  buffer: readFileSync(new URL("../src/engine/run/fixtures/run-v4-nested.json", import.meta.url)),
};

interface ExportLine {
  format: string;
  version: number;
  run: {
    id: string;
    question: string;
    kind: string;
    rounds: { steps: { output: string }[] }[];
  };
}

test("selected runs export as JSON lines in list order, and import back as stored runs", async () => {
  await runs(3);
  const keys = (await studio.keys()) as [string, string, string];
  // Picked out of order: the file lists them as History does, newest first.
  for (const k of [keys[1], keys[2], keys[0]]) await studio.select(studio.entryByKey(k));
  const file = await studio.exportJsonLines();
  expect(file.name).toBe("conductor-runs-3.jsonl");
  expect(file.text.endsWith("}\n")).toBe(true);
  expect(file.text.split("\n")).toHaveLength(4);
  const lines = file.lines as ExportLine[];
  expect(lines.map((l) => [l.format, l.version])).toEqual(
    Array.from({ length: 3 }, () => ["conductor-studio/run", 4]),
  );
  expect(lines.map((l) => l.run.id)).toEqual(keys);
  expect(lines.map((l) => l.run.rounds[0]?.steps[2]?.output)).toEqual([
    "Judge Qwen answer #3.",
    "Judge Qwen answer #2.",
    "Judge Qwen answer #1.",
  ]);
  // Each line is the stored export, as one line.
  const stored = await studio.storedTexts();
  expect(lines.map((l) => JSON.stringify(l)).sort()).toEqual(
    stored.map((t) => JSON.stringify(JSON.parse(t))).sort(),
  );
  const jsonl = { name: file.name, mimeType: "application/jsonl", buffer: Buffer.from(file.text) };

  // Into the same history: the stored runs are already there, and stay as they are.
  await studio.rename(studio.entryByKey(keys[2]), "The first try");
  await expect(studio.title(studio.entryByKey(keys[2]))).toHaveText("The first try");
  const kinds = await Promise.all(keys.map((k) => studio.entryByKey(k).getAttribute("data-kind")));
  await expect(studio.entryByKey(keys[0])).toHaveClass(/open/);
  await studio.importIntoHistory(jsonl);
  // The lines are stored, none opens: the run on screen stays (issue 22).
  await expect(studio.byTestId("notice")).toHaveText(
    "Stored 3 runs from conductor-runs-3.jsonl in History; what is on screen is unchanged.×",
  );
  await expect(studio.entryByKey(keys[0])).toHaveClass(/open/);
  await expect(studio.entryByKey(keys[2])).not.toHaveClass(/open/);
  await expect.poll(() => studio.keys()).toEqual(keys);
  await expect(studio.title(studio.entryByKey(keys[2]))).toHaveText("The first try");
  await expect(studio.entryByKey(keys[2])).toHaveAttribute("data-kind", "planned");
  expect((await studio.storedTexts()).sort()).toEqual([...stored].sort());

  // Into a fresh browser profile, with a single-run file beside it: four new stored runs, each whole
  // (the single run was made long ago, so it lists last).
  await studio.forgetStoredRuns();
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(0);
  await studio.importIntoHistory([jsonl, NESTED]);
  await expect(studio.byTestId("question")).toHaveValue(/longest increasing subsequence/);
  await expect.poll(() => studio.keys()).toEqual([...keys, "nested"]);
  // Each line keeps its run's kind; the single file is an imported run. Both are confirmed.
  for (const [i, k] of keys.entries())
    await expect(studio.entryByKey(k)).toHaveAttribute("data-kind", kinds[i]!);
  await expect(studio.entryByKey("nested")).toHaveAttribute("data-kind", "imported");
  await expect(studio.byTestId("notice")).toContainText("Opened ");
  await expect(studio.byTestId("notice")).toContainText(
    "Stored 3 runs from conductor-runs-3.jsonl in History",
  );
  for (const [i, k] of keys.entries()) {
    await studio.title(studio.entryByKey(k)).click();
    await expect(studio.entryByKey(k)).toHaveClass(/open/);
    await showsRun(3 - i);
  }
});

test("a retry and a re-run from a step are child runs; Lineage links each to its parent and children", async () => {
  server.script(CHECKER, { status: 401 });
  await studio.run();
  await expect(studio.status(1)).toHaveAttribute("data-status", "failed");
  await studio.waitIdle();
  await studio.selectNode(1);
  await expect(studio.byTestId("rerun-from")).toHaveText("Retry this step");
  await studio.byTestId("rerun-from").click();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #1.");
  await studio.waitIdle();
  await studio.selectNode(2);
  await expect(studio.byTestId("rerun-from")).toHaveText("Re-run from here");
  await studio.byTestId("rerun-from").click();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #2.");
  await studio.waitIdle();
  const rerunRecord = (await studio.exportRun()).raw.run as { parentId: string | null };

  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(3);
  const [rerun, retry, planned] = (await studio.keys()) as [string, string, string];
  const kinds = ["rerun", "retry", "planned"];
  for (const [i, kind] of kinds.entries())
    await expect(studio.entry(i)).toHaveAttribute("data-kind", kind);
  await expect(studio.entryByKey(planned)).toHaveAttribute("data-status", "failed");
  expect(rerunRecord.parentId).toBe(retry);

  // The re-run: its parent is the retry, and it has no children.
  await expect(studio.entryByKey(rerun)).toHaveClass(/open/);
  const lineage = studio.lineage();
  await expect(lineage.getByTestId("lineage-parent")).toContainText(`${QUESTION} (retry · `);
  await expect(lineage.getByTestId("lineage-child")).toHaveCount(0);

  // The retry, opened from there: the planned run before it, the re-run after it.
  await lineage.getByTestId("lineage-parent").click();
  await expect(studio.entryByKey(retry)).toHaveClass(/open/);
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #1.");
  await expect(studio.output(1)).toHaveText("Checker Claude answer #1.");
  await expect(lineage.getByTestId("lineage-parent")).toContainText(`${QUESTION} (planned · `);
  await expect(lineage.getByTestId("lineage-child")).toHaveCount(1);
  // Named as History's rows name kinds.
  await expect(lineage.getByTestId("lineage-child")).toHaveText(/^re-run · /);

  // The planned run: no parent, the retry as its child.
  await lineage.getByTestId("lineage-parent").click();
  await expect(studio.entryByKey(planned)).toHaveClass(/open/);
  await expect(studio.status(1)).toHaveAttribute("data-status", "failed");
  await expect(lineage.getByTestId("lineage-parent")).toHaveCount(0);
  await expect(lineage.getByTestId("lineage-child")).toHaveCount(1);
  await expect(lineage.getByTestId("lineage-child")).toHaveText(/^retry · /);
  await lineage.getByTestId("lineage-child").click();
  await expect(studio.entryByKey(retry)).toHaveClass(/open/);
});
