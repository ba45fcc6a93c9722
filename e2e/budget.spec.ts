import { expect, test } from "@playwright/test";
import type { Locator } from "@playwright/test";
import { RecursionPage } from "./pages/recursion.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";
import { chatCalls, conductorText, lastUserText } from "./support/scenario.ts";
import type { PlanLists } from "./support/scenario.ts";

const CONDUCTOR = "conductor-7b";
const POOL = [
  { name: "Solver", model: "solver" },
  { name: "Checker", model: "checker" },
];
const QUESTION = "Is 391 a prime number?";
const plan = (model_id: number[], subtasks: string[], access_list: PlanLists["access_list"]) =>
  conductorText({ model_id, subtasks, access_list }, "Reasoning.");
const ROUND_1 = plan([0, 1], ["Factor 391.", "Check the factoring."], [[], "all"]);
const ROUND_2 = plan([1, 0], ["Look again.", "Write the final answer."], ["all", "all"]);
const ROUND_1_ANSWER = "Checked: 391 = 17 × 23, not prime.";

let server: TestServer;
let studio: RecursionPage;
withTestServer((s) => (server = s));
withPageObject(RecursionPage, (s) => (studio = s));

const subtaskOf = (body: ChatBody) =>
  lastUserText(body).split("Your assigned subtask: ").at(-1) ?? "";
const chats = () => chatCalls(server);
const statusOf = (step: Locator) => step.getByTestId("status-badge");

test("a budget cut in a later round keeps the last finished round's answer; the steps it stopped are not run; planning counts", async ({
  page,
}) => {
  server.script(CONDUCTOR, ROUND_1, ROUND_2);
  const answers: Record<string, string> = {
    "Factor 391.": "391 = 17 × 23.",
    "Check the factoring.": ROUND_1_ANSWER,
    "Look again.": "Still 17 × 23.",
    "Write the final answer.": "Never written.",
  };
  for (const w of POOL)
    server.setDefault(w.model, (body: ChatBody) => ({ content: answers[subtaskOf(body)] ?? "?" }));
  // 5 calls: the plan, round 1's two steps, round 2's plan and its first step.
  await studio.open(server.baseURL, POOL, CONDUCTOR, { rounds: 2, maxDepth: 1, maxCalls: 5 });
  await studio.planRound1(QUESTION, 2);
  await studio.run();
  // The run's end: its reason shows under the answer (not a wait on Cancel, which may be gone).
  await expect(studio.byTestId("end-reason")).toContainText("budget of model calls");
  await studio.waitIdle();

  // Every call counted, the plan included: a budget of 5 allowed 5.
  expect(chats()).toHaveLength(5);
  await expect(studio.byTestId("final-answer")).toHaveText(ROUND_1_ANSWER);
  await expect(statusOf(studio.roundSteps(2).nth(0))).toHaveAttribute("data-status", "done");
  const stopped = statusOf(studio.roundSteps(2).nth(1));
  await expect(stopped).toHaveAttribute("data-status", "skipped");
  await expect(stopped).toHaveText("not run");
  await expect(page.locator('[data-status="failed"]')).toHaveCount(0);
});
