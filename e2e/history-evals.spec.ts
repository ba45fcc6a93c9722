import { expect, test } from "@playwright/test";
import { SAMPLE_MATH } from "../src/engine/eval/dataset/sample-math.ts";
import { EvaluatePage } from "./pages/evaluate.ts";
import { HistoryPage } from "./pages/history.ts";
import type { StudioPage } from "./pages/studio.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, WORKERS, messagesText, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;
withStudio((s) => ({ server, studio } = s));

const [SOLVER, CHECKER] = WORKERS;

/** The solver answers every sample question right; the checker only the first one. */
function scriptEval() {
  const answer = (right: (i: number) => boolean) => (body: ChatBody) => {
    const i = SAMPLE_MATH.findIndex((q) => messagesText(body).includes(q.question));
    const value = i >= 0 && right(i) ? SAMPLE_MATH[i]!.expected! : "99999";
    return { content: `Answer: ${value}`, usage: { prompt_tokens: 100, completion_tokens: 20 } };
  };
  server.setDefault(
    SOLVER.model,
    answer(() => true),
  );
  server.setDefault(
    CHECKER.model,
    answer((i) => i === 0),
  );
}

test("evaluation items fold into one History row per evaluation that opens its report; a kind filter lists the items", async ({
  page,
}, info) => {
  // One run of the user's own first, then an evaluation of 20 questions through two strategies.
  scriptPlanAndAnswers(server);
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  scriptEval();
  const evaluate = new EvaluatePage(page);
  await evaluate.open();
  await evaluate.pickSample("math");
  await evaluate.choose(`single:${SOLVER.name}`, `single:${CHECKER.name}`);
  await evaluate.start();
  await expect(evaluate.byTestId("eval-done")).toHaveText("40/40", { timeout: 30_000 });
  await evaluate.byTestId("evaluate-close").click();

  const history = new HistoryPage(page);
  await history.openHistory();
  // The user's run stands alone; the 40 item runs are one evaluation row.
  await expect(page.getByTestId("history-evaluation")).toHaveCount(1);
  await expect(history.entries()).toHaveCount(1);
  await expect(history.entries().first()).not.toHaveAttribute("data-kind", "evaluation");
  const group = page.getByTestId("history-evaluation");
  await expect(group.getByTestId("history-evaluation-items")).toHaveText("40 item runs");
  await expect(group).toContainText(`single:${CHECKER.name}, single:${SOLVER.name}`);
  await expect(group.getByText("21/40 correct")).toBeInViewport();
  await expect(group.getByTestId("history-cost")).toBeInViewport();
  await expect(group).toContainText("21/40 correct");
  // 40 calls of 100 + 20 tokens at $1 / $2 per million.
  await expect(group.getByTestId("history-cost")).toHaveText("$0.0056");
  await expect(history.entries().first().getByTestId("history-cost")).toHaveText(/^\$/);
  await page.screenshot({ path: info.outputPath("history-grouped.png") });

  // The kind filter lists every item, each naming its evaluation, strategy, item and verdict.
  await page.getByTestId("history-kind-filter").selectOption("items");
  await expect(page.getByTestId("history-evaluation")).toHaveCount(0);
  await history.search("math-01");
  const item = history.entries().filter({ hasText: `single:${CHECKER.name}` });
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId("history-item")).toHaveText(
    new RegExp(`^correct · single:${CHECKER.name} · item math-01 · in \\S`),
  );
  await expect(item.getByTestId("history-item")).toBeInViewport();
  await expect(item.getByTestId("history-cost")).toHaveText("$0.0001");
  await page.screenshot({ path: info.outputPath("history-items.png") });
  await page.getByTestId("history-kind-filter").selectOption("runs");
  await history.search("");
  await expect(history.entries()).toHaveCount(1);

  // The evaluation's row opens its report.
  await page.getByTestId("history-kind-filter").selectOption("grouped");
  await page.getByTestId("history-evaluation-open").click();
  await expect(evaluate.byTestId("evaluate-view")).toBeVisible();
  await expect(evaluate.accuracy(`single:${SOLVER.name}`)).toHaveText("100.0%");
});
