import { expect, test } from "@playwright/test";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { openEvaluate } from "./support/studio.ts";
import {
  CONDUCTOR_MODEL,
  WORKERS,
  askedNumber,
  conductorText,
  plusOneQuestions,
} from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER, CHECKER] = WORKERS;
const NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 20, 30, 40, 50, 60, 70, 80, 90];

/** The Conductor gives every question to the solver (always right); the checker alone is right below 10 only. */
function script() {
  server.setDefault(
    CONDUCTOR_MODEL,
    conductorText({ model_id: [0], subtasks: ["Solve it and answer."], access_list: [[]] }),
  );
  server.setDefault(SOLVER.model, (b) => `Answer: ${askedNumber(b) + 1}`);
  server.setDefault(
    CHECKER.model,
    (b) => `Answer: ${askedNumber(b) < 10 ? askedNumber(b) + 1 : 0}`,
  );
}

const QUESTIONS = plusOneQuestions(NUMBERS, (n) => ({ category: n < 10 ? "small" : "large" }));

test("the report shows intervals, the paired sentence and the per-category table", async ({
  page,
}) => {
  script();
  const { studio, evaluate } = await openEvaluate(page, server);
  await evaluate.importFile("numbers.jsonl", QUESTIONS);
  await expect(evaluate.byTestId("eval-count")).toHaveText("16 question(s)");
  const checker = `single:${CHECKER.name}`;
  await evaluate.choose("conductor", checker);
  await evaluate.start();
  await expect(evaluate.byTestId("eval-done")).toHaveText("32/32", { timeout: 45_000 });
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished");

  // Accuracy with its 95% bootstrap interval; questions and samples apart.
  const row = evaluate.byTestId(`report-${checker}`);
  await expect(row.getByTestId("accuracy")).toHaveText("50.0%");
  await expect(row.getByTestId("accuracy-ci")).toHaveText(/^\d+\.\d – \d+\.\d$/);
  const [lo, hi] = ((await row.getByTestId("accuracy-ci").textContent()) ?? "")
    .split(" – ")
    .map(Number);
  expect(lo).toBeLessThan(50);
  expect(hi).toBeGreaterThan(50);
  await expect(row.getByTestId("questions")).toHaveText("16");
  await expect(row.getByTestId("scored")).toHaveText("16/16");
  await expect(row.getByTestId("errors")).toHaveText("0");
  await expect(evaluate.byTestId("report-conductor").getByTestId("accuracy-ci")).toHaveText(
    "100.0 – 100.0",
  );

  // The paired comparison: 8 discordant questions, all the Conductor's (McNemar p = 2/256).
  const cmp = evaluate.byTestId(`comparison-${checker}`);
  await expect(cmp).toHaveAttribute("data-verdict", "ahead");
  await expect(cmp).toContainText("McNemar (8 vs 0)");
  await expect(evaluate.byTestId("comparison-sentence")).toHaveText(
    new RegExp(
      `^The Conductor is ahead of ${checker} by 50\\.0 points \\(95% CI \\d+\\.\\d to \\d+\\.\\d, p = 0\\.008\\)\\.$`,
    ),
  );

  // Per category: the checker is right on every small number and on no large one.
  await expect(evaluate.byTestId(`category-small-${checker}`)).toContainText("100.0%");
  await expect(evaluate.byTestId(`category-small-${checker}`)).toContainText("(8 q)");
  await expect(evaluate.byTestId(`category-large-${checker}`)).toContainText("0.0%");
  await expect(evaluate.byTestId("category-large-conductor")).toContainText("100.0%");
  await expect(evaluate.byTestId("eval-scorers")).toHaveText(
    /^Scored by math v\d+ \(default\) \(32\)\.$/,
  );
  await expect(evaluate.byTestId("eval-provenance")).toContainText("2000 bootstrap resamples");
  expect(studio.errors).toEqual([]);
});
