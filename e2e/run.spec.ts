import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  PLAN_USAGE,
  QUESTION,
  WORKERS,
  callsTo,
  scriptPlan,
  slowly,
} from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withStudio((s) => ({ server, studio } = s), {
  script: (s) => scriptPlan(s, ATTEMPTS_THEN_JUDGE, { usage: PLAN_USAGE }),
  ask: QUESTION,
  plan: 3,
});

const [SOLVER, CHECKER, JUDGE] = WORKERS.map((w) => w.model) as [string, string, string];
const calls = (model: string) => () => callsTo(server, model).length;
const SOLVER_ANSWER = "Trial division up to 19: 391 = 17 × 23, so 391 is not prime.";
const JUDGE_ANSWER = "**Not prime.** Both agents agree:\n\n```python\nprint(17 * 23)  # 391\n```\n";

test("running streams each worker's answer into its node and shows the final answer", async ({
  page,
}) => {
  const usage = { prompt_tokens: 100, completion_tokens: 20 };
  server.setDefault(SOLVER, { ...slowly(SOLVER_ANSWER, 3, 20), usage });
  server.setDefault(CHECKER, { ...slowly("391 = 17 × 23.", 3, 20), usage });
  server.setDefault(JUDGE, {
    ...slowly(JUDGE_ANSWER, 4, 10),
    usage: { ...usage, completion_tokens: 50 },
  });

  await studio.startSampling();
  await studio.run();
  await expect(studio.status(0)).toHaveAttribute("data-status", "running");
  await expect(studio.byTestId("cancel")).toBeVisible();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  await studio.waitIdle();

  // Node 0 showed part of its answer while it was still running.
  const samples = await studio.samples();
  const streaming = samples.filter(
    (s) =>
      s.nodes[0]?.status === "running" &&
      s.nodes[0].output > 0 &&
      s.nodes[0].output < SOLVER_ANSWER.length,
  );
  expect(new Set(streaming.map((s) => s.nodes[0]?.output)).size).toBeGreaterThan(3);
  // The judge, which sees both attempts, started only after they were done.
  expect(
    samples.some((s) => s.nodes[2]?.status === "running" && s.nodes[0]?.status !== "done"),
  ).toBe(false);

  await expect(studio.output(0)).toHaveText(SOLVER_ANSWER);
  const answer = studio.byTestId("final-answer");
  await expect(answer.locator("pre code")).toHaveText("print(17 * 23)  # 391\n");
  await expect(answer.locator("strong")).toHaveText("Not prime.");
  await expect(answer).not.toContainText("```");
  await expect(studio.node(0)).toContainText("120 tok");
  // 480 for the plan, 120 + 120 + 150 for the three steps.
  await expect(studio.byTestId("totals")).toContainText("870 tokens");
  // The judge read both attempts, as docs/protocol.md §1.5 lays them out.
  const judged = JSON.stringify(callsTo(server, JUDGE)[0]?.body);
  expect(judged).toContain("<Agent 0 response>");
  expect(judged).toContain(SOLVER_ANSWER);

  // Ctrl+Enter runs again, from anywhere (here the question box).
  await studio.byTestId("question").focus();
  await page.keyboard.press("Control+Enter");
  await expect.poll(calls(JUDGE)).toBe(2);
  await studio.waitIdle();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  expect([calls(SOLVER)(), calls(CHECKER)()]).toEqual([2, 2]);
});

test("cancel stops the run: every step is cancelled and no further call is made", async () => {
  // Both calls are held: only the cancel can end them.
  server.gate("held");
  server.setDefault(SOLVER, { content: "late", gate: "held" });
  server.setDefault(CHECKER, { content: "late", gate: "held" });
  server.setDefault(JUDGE, "never asked");

  await studio.run();
  await expect(studio.status(0)).toHaveAttribute("data-status", "running");
  await expect(studio.status(1)).toHaveAttribute("data-status", "running");
  await expect.poll(calls(SOLVER)).toBe(1);
  await expect.poll(calls(CHECKER)).toBe(1);

  await studio.cancel();
  for (const i of [0, 1, 2])
    await expect(studio.status(i)).toHaveAttribute("data-status", "cancelled");
  await studio.waitIdle();
  await expect(studio.byTestId("no-answer")).toContainText("cancelled");
  const { json } = await studio.exportRun();
  expect(json.run.rounds[0]?.steps.map((s) => s.status)).toEqual([
    "cancelled",
    "cancelled",
    "cancelled",
  ]);
  // Nothing was retried and the judge was never asked.
  expect([calls(SOLVER)(), calls(CHECKER)(), calls(JUDGE)()]).toEqual([1, 1, 0]);
});

test("re-run from a step calls only that step and what reads it; an edit marks steps stale", async () => {
  server.setDefault(SOLVER, "Solver: 17 × 23.");
  server.setDefault(CHECKER, "Checker: 391 = 17 × 23.");
  server.script(
    JUDGE,
    "First verdict: not prime.",
    "Second verdict: 391 = 17 × 23.",
    "Third verdict: still 17 × 23.",
  );

  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText("First verdict");
  await studio.waitIdle();
  expect([calls(SOLVER)(), calls(CHECKER)(), calls(JUDGE)()]).toEqual([1, 1, 1]);

  await studio.selectNode(2);
  await expect(studio.byTestId("rerun-from")).toHaveText("Re-run from here");
  await studio.byTestId("rerun-from").click();
  await expect(studio.byTestId("final-answer")).toContainText("Second verdict");
  await studio.waitIdle();
  expect([calls(SOLVER)(), calls(CHECKER)(), calls(JUDGE)()]).toEqual([1, 1, 2]);
  await expect(studio.output(0)).toHaveText("Solver: 17 × 23.");
  await expect(studio.output(1)).toHaveText("Checker: 391 = 17 × 23.");
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");

  // Editing step 1 makes it and the judge that reads it stale; step 0 keeps its result.
  await studio.selectNode(1);
  const input = studio.byTestId("subtask-input");
  await input.click();
  await input.press("End");
  await input.pressSequentially(" Carefully.");
  await input.blur();
  await expect(studio.status(1)).toHaveAttribute("data-status", "stale");
  await expect(studio.status(2)).toHaveAttribute("data-status", "stale");
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");

  // Re-running from the edited step leaves step 0 alone.
  await studio.byTestId("rerun-from").click();
  await expect(studio.byTestId("final-answer")).toContainText("Third verdict");
  await studio.waitIdle();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  expect([calls(SOLVER)(), calls(CHECKER)(), calls(JUDGE)()]).toEqual([1, 2, 3]);
  expect(JSON.stringify(callsTo(server, CHECKER)[1]?.body)).toContain("Carefully.");
});

test("a step that fails shows why; once fixed, Retry this step finishes the run", async () => {
  server.setDefault(SOLVER, "Solver: 17 × 23.");
  server.script(CHECKER, { status: 401 });
  server.setDefault(JUDGE, "Verdict: not prime.");

  await studio.run();
  await expect(studio.status(1)).toHaveAttribute("data-status", "failed");
  await studio.waitIdle();
  await expect(studio.output(1)).toContainText("refused the API key");
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  // The judge never ran: it reads the failed step. It is skipped, not failed.
  await expect(studio.status(2)).toHaveAttribute("data-status", "skipped");
  await expect(studio.status(2)).toHaveText("skipped");
  await expect(studio.status(2)).toHaveAttribute("title", "Not run: a step it reads failed");
  await expect(studio.byTestId("final-answer")).toHaveCount(0);
  // An auth error is not retried.
  expect([calls(SOLVER)(), calls(CHECKER)(), calls(JUDGE)()]).toEqual([1, 1, 0]);

  await studio.selectNode(1);
  await expect(studio.byTestId("inspector").getByRole("alert")).toContainText(
    "refused the API key",
  );
  server.script(CHECKER, "Checker: 391 = 17 × 23.");
  await expect(studio.byTestId("rerun-from")).toHaveText("Retry this step");
  await studio.byTestId("rerun-from").click();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  await expect(studio.byTestId("final-answer")).toContainText("Verdict: not prime.");
  expect([calls(SOLVER)(), calls(CHECKER)(), calls(JUDGE)()]).toEqual([1, 2, 1]);
});

test("HTML and script in a model's output are shown as text, never run", async ({ page }) => {
  const hostile =
    'Here: <script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> done.';
  server.setDefault(SOLVER, "Solver: 17 × 23.");
  server.setDefault(CHECKER, "Checker: fine.");
  server.setDefault(JUDGE, hostile);

  await studio.run();
  const answer = studio.byTestId("final-answer");
  await expect(answer).toContainText("<script>window.__pwned=1</script>");
  await expect(answer).toContainText('<img src=x onerror="window.__pwned=2">');
  await expect(answer.locator("script, img")).toHaveCount(0);
  await studio.selectNode(2);
  const inspected = studio.byTestId("inspector-output");
  await expect(inspected).toContainText("<script>window.__pwned=1</script>");
  await expect(inspected.locator("script, img")).toHaveCount(0);
  await expect(studio.output(2)).toContainText("onerror=");
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
});
