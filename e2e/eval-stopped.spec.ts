// Issue 35's Evaluate minors: a stopped evaluation reopened reads as stopped (never "Running"); an
// errored item is said to have errored, with its error, in the item view and in History; and an
// open History lists an evaluation's items without being reopened.
import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { WORKERS, askedNumber, plusOneQuestions } from "./support/scenario.ts";

let server: TestServer;
let studio: HistoryPage;
withStudio((s) => ({ server, studio } = s), { as: HistoryPage });

const [SOLVER] = WORKERS;
const SINGLE = `single:${SOLVER.name}`;

test("a cancelled evaluation reopened reads Cancelled, not Running", async ({ page }) => {
  // Every answer waits long enough that Cancel comes first.
  server.setDefault(SOLVER.model, { content: "Answer: 1", latencyMs: 60_000 });
  const evaluate = new EvaluatePage(page);
  await evaluate.open();
  await evaluate.importFile("numbers.jsonl", plusOneQuestions([1, 2, 3]));
  await evaluate.choose(SINGLE);
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "running");
  await evaluate.byTestId("eval-cancel").click();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "cancelled");
  await expect(evaluate.progress()).toContainText("Cancelled");

  await evaluate.byTestId("evaluate-close").click();
  await evaluate.open();
  await expect(evaluate.byTestId("eval-resumable")).toContainText("stopped at 0/3");
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "cancelled");
  await expect(evaluate.progress()).toContainText("Cancelled");
  await expect(evaluate.progress()).not.toContainText("Running");
  await expect(evaluate.byTestId("eval-pause")).toHaveCount(0);
});

test("an errored item says it errored, with its error, in the item view and in an open History", async ({
  page,
}) => {
  // The solver fails on 2 (a bad request is not retried) and answers the others right.
  server.setDefault(SOLVER.model, (b) =>
    askedNumber(b) === 2
      ? { status: 400, errorMessage: "the model refused this request" }
      : { content: `Answer: ${askedNumber(b) + 1}` },
  );
  await studio.openHistory();
  await expect(page.getByTestId("history-evaluation")).toHaveCount(0);
  const evaluate = new EvaluatePage(page);
  await evaluate.open();
  await evaluate.importFile("numbers.jsonl", plusOneQuestions([1, 2, 3]));
  await evaluate.choose(SINGLE);
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished", { timeout: 30_000 });
  await expect(evaluate.byTestId("eval-errors")).toHaveText("1 errored");

  // The item view: an error, not a scorer's verdict.
  const errored = evaluate.cell("q2", SINGLE);
  await errored.click();
  const verdict = evaluate.byTestId("eval-item-verdict");
  await expect(verdict).toHaveAttribute("data-tone", "error");
  await expect(verdict).toContainText("Errored: a call failed, so no scorer judged it");
  await expect(evaluate.byTestId("eval-item-why")).toContainText("the error:");
  await expect(evaluate.byTestId("eval-item-why")).toContainText("the model refused this request");
  await expect(verdict).not.toContainText("the scorer");

  // History, open all along, lists the evaluation with its errored item named so.
  await evaluate.byTestId("evaluate-close").click();
  const group = page.getByTestId("history-evaluation");
  await expect(group).toHaveCount(1);
  await expect(group.getByTestId("history-evaluation-items")).toHaveText("3 item runs");
  await expect(group.getByTestId("history-evaluation-verdicts")).toHaveText(
    "2/2 correct · 1 errored",
  );
  await page.getByTestId("history-kind-filter").selectOption("items");
  await expect(studio.entries().filter({ hasText: "item q2" })).toContainText("errored");
});
