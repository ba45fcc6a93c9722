import { expect, test } from "@playwright/test";
import type { Locator } from "@playwright/test";
import { RecursionPage } from "./pages/recursion.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";

const CONDUCTOR = "conductor-7b";
const POOL = [
  { name: "Solver", model: "solver" },
  { name: "Checker", model: "checker" },
];
const QUESTION = "Is 391 a prime number?";
const plan = (ids: number[], subtasks: string[], access: string) =>
  `Reasoning.\nmodel_id = [${ids.join(", ")}]\nsubtasks = [${subtasks.map((s) => JSON.stringify(s)).join(", ")}]\naccess_list = ${access}`;
const ROUND_1 = plan([0, 1], ["Factor 391.", "Check the factoring."], '[[], ["all"]]');
const ROUND_2 = plan([1, 0], ["Look again.", "Write the final answer."], '[["all"], ["all"]]');
const ROUND_1_ANSWER = "Checked: 391 = 17 × 23, not prime.";

let server: TestServer;
let studio: RecursionPage;
withTestServer((s) => (server = s));
test.afterEach(() => {
  expect(studio.errors).toEqual([]);
});

const subtaskOf = (body: ChatBody) => {
  const last = body.messages.findLast((m) => m.role === "user")?.content;
  return (typeof last === "string" ? last : "").split("Your assigned subtask: ").at(-1) ?? "";
};
const chats = () =>
  server.requests.filter((r) => r.method === "POST" && r.path === "/v1/chat/completions");
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
  studio = new RecursionPage(page);
  // 5 calls: the plan, round 1's two steps, round 2's plan and its first step.
  await studio.seedRecursion(server.baseURL, POOL, CONDUCTOR, {
    rounds: 2,
    maxDepth: 1,
    maxCalls: 5,
  });
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.startPlan();
  await expect(studio.mainSteps()).toHaveCount(2);
  await expect(studio.byTestId("plan")).toBeEnabled();
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
