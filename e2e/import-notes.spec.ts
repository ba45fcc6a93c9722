import { expect, test } from "@playwright/test";
import type { ExportedFile } from "./pages/exports.ts";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, WORKERS, scriptAnswers, scriptPlan, slowly } from "./support/scenario.ts";

// Imports say what they opened, in the user's words (names, rounds and steps from 1); a JSON-lines
// import stores runs as they were without replacing the run on screen; and an import while a run
// goes on says where that run is, with a way back, and never lets a Cancel on screen stop it.

let server: TestServer;
let studio: HistoryPage;
withStudio((s) => ({ server, studio } = s), {
  as: HistoryPage,
  script: (s) => {
    scriptPlan(s);
    scriptAnswers(s, (w) => `${w.name}: 391 = 17 × 23.`);
  },
});

const asUpload = (file: { name: string; text: string }, mimeType = "application/json") => ({
  name: file.name,
  mimeType,
  buffer: Buffer.from(file.text),
});

async function finishedRun(): Promise<ExportedFile> {
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  await expect(studio.byTestId("final-answer")).toContainText("391 = 17 × 23");
  return studio.exportRun();
}

/** A finished run's export, then a second run, still going on: its checker streams slowly. */
async function finishedThenRunning(): Promise<ExportedFile> {
  const file = await finishedRun();
  const [, checker] = WORKERS;
  server.setDefault(
    checker.model,
    slowly("The checker is still factoring 391 by hand, slowly. ".repeat(4), 4, 200),
  );
  await studio.run();
  await expect(studio.output(1)).toContainText("The checker is still");
  return file;
}

test("an import confirms what it opened, and its notes count rounds and steps from 1", async () => {
  const file = await finishedRun();
  // The same run with step 1 edited after planning.
  const edited = structuredClone(file.raw) as {
    run: { rounds: { steps: { subtask: string }[] }[] };
  };
  edited.run.rounds[0]!.steps[0]!.subtask = "Edited by hand.";
  await studio.forgetStoredRuns();
  await studio.importFile(asUpload({ name: "edited.json", text: JSON.stringify(edited) }));
  const notice = studio.byTestId("notice");
  await expect(notice).toContainText(
    `Opened edited.json: "${QUESTION}" (3 steps), now stored in History.`,
  );
  await expect(notice).toContainText(
    "round 1: the steps that ran differ from the Conductor's lists at step 1",
  );
  await expect(notice).not.toContainText("round 0");
  await expect(notice).not.toContainText("w0");
  await expect(studio.subtask(0)).toHaveText("Edited by hand.");
});

test("a JSON-lines import stores each run with its kind and duration, and leaves the screen alone", async ({
  page,
}) => {
  await finishedRun();
  await studio.openHistory();
  const rows = studio.byTestId("history-entry");
  await expect(rows).toHaveCount(1);
  const kind = await rows.first().getAttribute("data-kind");
  const facts = await rows.first().locator(".history-facts").textContent();
  await studio.select(rows.first());
  const lines = await studio.exportJsonLines();
  await studio.forgetStoredRuns();

  // Something of the user's own on screen: a typed question.
  await studio.ask("My own next question");
  await studio.openHistory();
  await studio.importIntoHistory(asUpload(lines, "application/x-ndjson"));
  await expect(studio.byTestId("notice")).toContainText(
    `Stored 1 run from ${lines.name} in History; what is on screen is unchanged.`,
  );
  await expect(studio.byTestId("question")).toHaveValue("My own next question");
  await expect(studio.nodes()).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-kind", kind!);
  expect(kind).not.toBe("imported");
  // Its duration and the rest of its facts are those it was listed with.
  await expect(rows.first().locator(".history-facts")).toHaveText(facts!);
  await page.screenshot({ path: test.info().outputPath("jsonl-import.png") });
});

test("importing while a run goes on: the banner says where it is, Cancel is not the toolbar's, and Back to it returns", async ({
  page,
}) => {
  const file = await finishedThenRunning();

  await studio.importFile(asUpload(file));
  await expect(studio.byTestId("notice")).toContainText(`Opened ${file.name}:`);
  const banner = studio.byTestId("background-run");
  await expect(banner).toContainText("Your run goes on in the background");
  // The toolbar has no Cancel for a run that is not on screen, and the imported run shows done.
  await expect(studio.byTestId("cancel")).toHaveCount(0);
  await expect(studio.byTestId("run")).toBeDisabled();
  await expect(studio.status(1)).toHaveAttribute("data-status", "done");
  await page.screenshot({ path: test.info().outputPath("background-run.png") });

  await banner.getByTestId("back-to-live").click();
  await expect(banner).toHaveCount(0);
  await expect(studio.output(1)).toContainText("The checker is still");
  // Now the toolbar's Cancel is that run's, on screen.
  await studio.byTestId("cancel").click();
  await studio.waitIdle();
  await expect(studio.status(1)).toHaveAttribute("data-status", "cancelled");
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
});

test("the background run's banner cancels that run, by name, and only it", async () => {
  const file = await finishedThenRunning();
  await studio.importFile(asUpload(file));
  const cancel = studio.byTestId("cancel-background");
  await expect(cancel).toHaveText("Cancel that run");
  await cancel.click();
  await expect(studio.byTestId("background-run")).toHaveCount(0);
  await expect(studio.byTestId("run")).toBeEnabled();
  // The run on screen (the import) is untouched.
  await expect(studio.status(1)).toHaveAttribute("data-status", "done");
  await studio.openHistory();
  const rows = studio.byTestId("history-entry");
  await expect(rows.and(studio.page.locator('[data-status="cancelled"]'))).toHaveCount(1);
  await expect(rows.and(studio.page.locator('[data-status="done"]'))).toHaveCount(1);
});
