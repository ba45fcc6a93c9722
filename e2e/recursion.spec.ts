import { expect, test } from "@playwright/test";
import type { Locator } from "@playwright/test";
import type { ExportedFile } from "./pages/exports.ts";
import type { RecursionSettings } from "./pages/recursion.ts";
import { RecursionPage } from "./pages/recursion.ts";
import type { ChatBody, ReplySpec, TestServer } from "./server/server.ts";
import { callsTo, conductorText, lastUserText } from "./support/scenario.ts";
import type { PlanLists } from "./support/scenario.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";

// The scenario of docs/protocol.md §1.6 (as in .scratch/recursion.ts): GPT-5 drafts, the Conductor
// itself organises a verification as a nested workflow, and a refinement round double-checks the
// answer.
const CONDUCTOR = "conductor-7b";
const POOL = [
  { name: "GPT-5", model: "gpt-5" },
  { name: "Claude Sonnet 4", model: "claude" },
  { name: "The Conductor itself" },
];
const QUESTION = "Design and verify a fast algorithm for the longest increasing subsequence.";

const DRAFT = "Draft an O(n log n) LIS algorithm.";
const VERIFY = "Verify the draft and give the final algorithm.";
const EDGE_CASES = "Test the draft on edge cases.";
const FINAL = "Write the final verified algorithm.";
const DOUBLE_CHECK = "Double-check the final algorithm and restate it.";
const RESTATE = "Restate the final algorithm from scratch.";
const BETTER = "Write the final algorithm with a worked example.";

/** Each subtask's answer: the workers answer by the subtask they were given. */
const ANSWERS: Record<string, string> = {
  [DRAFT]: "Draft: patience sorting with binary search, O(n log n).",
  [EDGE_CASES]: "Edge cases pass: empty, all equal, decreasing.",
  [FINAL]: "Final: patience sorting with binary search, verified on edge cases.",
  [DOUBLE_CHECK]: "Checked again: patience sorting is correct and O(n log n).",
  [RESTATE]: "Restated: keep the smallest tail of each length; binary-search each element.",
  [BETTER]: "Final, with an example: [3, 1, 2, 5] gives length 3.",
};

const plan = (
  why: string,
  model_id: number[],
  subtasks: string[],
  access_list: PlanLists["access_list"],
) => conductorText({ model_id, subtasks, access_list }, why);

const TOP_PLAN = plan("Draft, then a verification.", [0, 2], [DRAFT, VERIFY], [[], "all"]);
const NESTED_PLAN = plan("Beta tests, Alpha writes.", [1, 0], [EDGE_CASES, FINAL], [[], "all"]);
const REFINE_ALL = plan("One more check.", [1], [DOUBLE_CHECK], ["all"]);
const REFINE_ALONE = plan("A fresh restatement.", [1], [RESTATE], [[]]);
const ACCEPT = plan("The answer is right.", [], [], []);

// Every call reports usage and a provider cost, so group sums are exact.
const CONDUCTOR_USAGE = { prompt_tokens: 300, completion_tokens: 60, cost: 0.01 };
const WORKER_USAGE = { prompt_tokens: 100, completion_tokens: 20, cost: 0.02 };

/** The last user message of a request: what tells apart a top plan, a refinement and a nested plan. */
const lastUser = lastUserText;
const isRefinement = (body: ChatBody) => lastUser(body).includes("ANSWER:");
const isNestedPlan = (body: ChatBody) =>
  lastUser(body).includes("USER QUESTION:") && lastUser(body).includes("<overall_task>");
const subtaskOf = (body: ChatBody) => {
  const text = lastUser(body);
  const marker = "Your assigned subtask: ";
  return text.slice(text.lastIndexOf(marker) + marker.length).trim();
};

let server: TestServer;
let studio: RecursionPage;

/** Scripts the Conductor (by what it is asked) and the workers (by subtask). */
function script(refinement: string, slow: Record<string, ReplySpec> = {}) {
  server.setDefault(CONDUCTOR, (body) => ({
    content: isRefinement(body) ? refinement : isNestedPlan(body) ? NESTED_PLAN : TOP_PLAN,
    chunkDelayMs: 2,
    usage: CONDUCTOR_USAGE,
  }));
  for (const { model } of POOL.filter((w) => w.model)) {
    server.setDefault(model!, (body) => ({
      content: ANSWERS[subtaskOf(body)] ?? `Unscripted subtask: ${subtaskOf(body)}`,
      chunkDelayMs: 2,
      usage: WORKER_USAGE,
      ...slow[subtaskOf(body)],
    }));
  }
}

const conductorCalls = (match: (b: ChatBody) => boolean) =>
  callsTo(server, CONDUCTOR).filter((r) => match(r.body as ChatBody));
const workerCallFor = (subtask: string) =>
  POOL.flatMap((w) => (w.model ? callsTo(server, w.model) : [])).filter(
    (r) => subtaskOf(r.body as ChatBody) === subtask,
  );
const chatPosts = () => server.requests.filter((r) => r.method === "POST").length;

/** Seeds the settings, opens the app and plans round 1 (two steps on the canvas). */
async function openAndPlan(settings: RecursionSettings) {
  await studio.open(server.baseURL, POOL, CONDUCTOR, settings);
  await studio.planRound1(QUESTION, 2);
}

const statusOf = (step: Locator) => step.getByTestId("status-badge");
const outputOf = (step: Locator) => step.getByTestId("step-output");

async function expectDone(step: Locator, output: string) {
  await expect(statusOf(step)).toHaveAttribute("data-status", "done");
  await expect(outputOf(step)).toHaveText(output);
}

/** Runs and waits until the run has ended (the Run button is back). */
async function runToEnd() {
  await studio.run();
  await expect(studio.byTestId("cancel")).toBeVisible();
  await studio.waitIdle();
}

/**
 * With one refinement round (REFINE_ALL) and a budget of `maxCalls`, plans and runs to the end;
 * returns how many calls the run made after planning.
 */
async function runWithBudget(maxCalls: number): Promise<number> {
  script(REFINE_ALL);
  await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls });
  const planned = chatPosts();
  await runToEnd();
  return chatPosts() - planned;
}

withTestServer((s) => (server = s));
withPageObject(RecursionPage, (s) => (studio = s));

test.describe("refinement rounds", () => {
  test("a second round that sees the first is a group with a previous-round edge and gives the answer", async () => {
    script(REFINE_ALL);
    await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls: 0 });
    await runToEnd();

    await expect(studio.roundGroup(1)).toHaveCount(0);
    // Round 1's backdrop sums its plan, the draft and the nested step's own plan and two calls.
    await expect(
      studio.page.locator('[data-label="Round 1 (editable)"] .group-label'),
    ).toContainText("1,080 tok · $0.08");
    await expect(studio.roundGroup(2)).toBeVisible();
    await expect(studio.roundGroups()).toHaveCount(2);
    await expect(studio.roundSteps(2)).toHaveCount(1);
    await expectDone(studio.roundSteps(2), ANSWERS[DOUBLE_CHECK]!);
    await expect(studio.roundSteps(2).locator(".step-subtask")).toHaveText(DOUBLE_CHECK);
    // Round 2's box sums its plan and its step: 360 + 120 tokens, $0.01 + $0.02.
    await expect(studio.roundGroup(2).locator(".group-label")).toContainText("480 tok · $0.03");

    await expect(studio.previousRoundEdges()).toHaveCount(1);
    await expect(studio.byTestId("rf__edge-round-0=>round-1")).toHaveClass(/edge-previous/);
    await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[DOUBLE_CHECK]!);
    // The run's totals: both rounds, the refinement plan, and every nested call, each once.
    await expect(studio.byTestId("totals")).toContainText("1,560 tokens · $0.11");
    // The round-2 worker was shown round 1, and the Conductor was asked to refine once.
    const [check] = workerCallFor(DOUBLE_CHECK);
    expect(lastUser(check!.body as ChatBody)).toContain(
      "<Previous round subtask assigned to Agent 2>",
    );
    expect(conductorCalls(isRefinement)).toHaveLength(1);
  });

  test("a second round with no 'all' step has no previous-round edge", async () => {
    script(REFINE_ALONE);
    await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls: 0 });
    await runToEnd();

    await expect(studio.roundGroup(2)).toBeVisible();
    await expectDone(studio.roundSteps(2), ANSWERS[RESTATE]!);
    await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[RESTATE]!);
    await expect(studio.previousRoundEdges()).toHaveCount(0);
    const [restate] = workerCallFor(RESTATE);
    expect(lastUser(restate!.body as ChatBody)).not.toContain("Previous round");
  });

  test("when the Conductor accepts, no second round is drawn and round 1's answer stands", async () => {
    script(ACCEPT);
    await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls: 0 });
    await runToEnd();

    expect(conductorCalls(isRefinement)).toHaveLength(1);
    await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[FINAL]!);
    await expectDone(studio.mainStep(1), ANSWERS[FINAL]!);
    await expect(studio.roundGroups()).toHaveCount(0);
    await expect(studio.roundSteps(2)).toHaveCount(0);
    await expect(studio.previousRoundEdges()).toHaveCount(0);
  });
});

test("a step given to the Conductor itself runs a nested workflow that expands and collapses", async ({
  page,
}) => {
  script(ACCEPT);
  await openAndPlan({ rounds: 0, maxDepth: 1, maxCalls: 0 });
  await runToEnd();

  const self = studio.mainStep(1);
  await expect(self.locator(".step-worker")).toHaveText("The Conductor itself");
  await expectDone(self, ANSWERS[FINAL]!);
  await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[FINAL]!);
  // The nested Conductor planned once, for the step's subtask with what the step may see.
  const [nestedPlan] = conductorCalls(isNestedPlan);
  expect(lastUser(nestedPlan!.body as ChatBody)).toContain(VERIFY);
  expect(lastUser(nestedPlan!.body as ChatBody)).toContain(ANSWERS[DRAFT]);
  expect(conductorCalls(isNestedPlan)).toHaveLength(1);

  // The editable step can be dragged; the nested steps below cannot.
  await expect(studio.wrapperOf(self)).toHaveClass(/draggable/);
  const toggle = self.getByTestId("nested-toggle");
  await expect(studio.nestedToggles()).toHaveCount(1);
  await expect(toggle).toHaveText("▸ Show nested workflow (2 steps)");
  await expect(studio.nestedGroups()).toHaveCount(0);
  await toggle.click();

  const group = studio.nestedGroups();
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute("data-label", "Nested workflow of step 2");
  // The nested plan and both steps: 360 + 2 × 120 tokens, $0.01 + 2 × $0.02.
  await expect(group.locator(".group-label")).toContainText("600 tok · $0.05");
  await expect(toggle).toHaveText("▾ Hide nested workflow (2 steps)");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(studio.nestedSteps()).toHaveCount(2);
  for (const [i, subtask] of [EDGE_CASES, FINAL].entries()) {
    const step = studio.nestedStep(i);
    await expectDone(step, ANSWERS[subtask]!);
    await expect(step.locator(".step-subtask")).toHaveText(subtask);
    // Read-only: no connectable handle, and React Flow does not let it be dragged.
    await expect(step).toHaveClass(/readonly/);
    await expect(step.locator(".react-flow__handle.connectable")).toHaveCount(0);
    await expect(studio.wrapperOf(step)).not.toHaveClass(/draggable/);
  }
  await expect(page.locator(".react-flow__edge.edge-nested")).toHaveCount(1);

  await toggle.click();
  await expect(studio.nestedGroups()).toHaveCount(0);
  await expect(studio.nestedSteps()).toHaveCount(0);
  await expect(toggle).toHaveText("▸ Show nested workflow (2 steps)");
});

const asUpload = (file: ExportedFile) => ({
  name: file.name,
  mimeType: "application/json",
  buffer: Buffer.from(file.text),
});

/** The export without its timestamp: what must survive an import unchanged. */
const withoutExportedAt = ({ exportedAt: _, ...rest }: Record<string, unknown>) => rest;

test("a run with two rounds and a nested step exports, re-imports after a reload, and exports the same", async ({
  page,
}) => {
  script(REFINE_ALL);
  await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls: 0 });
  await runToEnd();
  await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[DOUBLE_CHECK]!);
  const exported = await studio.exportRun();
  expect(exported.json.run.rounds).toHaveLength(2);
  const posts = chatPosts();

  // A reload brings the stored run back; a fresh profile has it only through the import.
  await page.reload();
  await expect(studio.mainSteps()).toHaveCount(2);
  await expect(studio.roundGroup(2)).toBeVisible();
  await studio.forgetStoredRuns();
  await expect(studio.mainSteps()).toHaveCount(0);
  await studio.importFile(asUpload(exported));

  await expect(studio.mainSteps()).toHaveCount(2);
  await expectDone(studio.mainStep(0), ANSWERS[DRAFT]!);
  await expectDone(studio.mainStep(1), ANSWERS[FINAL]!);
  await expect(studio.roundGroup(2)).toBeVisible();
  await expectDone(studio.roundSteps(2), ANSWERS[DOUBLE_CHECK]!);
  await expect(studio.previousRoundEdges()).toHaveCount(1);
  await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[DOUBLE_CHECK]!);
  // The import confirms what it opened (rounds counted from 1), and has nothing else to say.
  await expect(studio.byTestId("notice")).toHaveText(
    /^Opened .+: ".+" \(2 steps, 2 rounds\), now stored in History\.×$/,
  );

  const toggle = studio.mainStep(1).getByTestId("nested-toggle");
  await expect(toggle).toHaveText("▸ Show nested workflow (2 steps)");
  await toggle.click();
  await expect(studio.nestedSteps()).toHaveCount(2);
  await expectDone(studio.nestedStep(0), ANSWERS[EDGE_CASES]!);
  await expectDone(studio.nestedStep(1), ANSWERS[FINAL]!);

  expect(chatPosts()).toBe(posts);
  const again = await studio.exportRun();
  expect(again.raw.run).toEqual(exported.raw.run);
  expect(withoutExportedAt(again.raw)).toEqual(withoutExportedAt(exported.raw));
});

test("a run stops cleanly at its budget of model calls inside a nested workflow", async () => {
  // The plan, the draft, the nested plan and the first nested step are four calls (the budget
  // counts the plan too); the fifth is refused.
  const runCalls = await runWithBudget(4);

  await expect(studio.byTestId("no-answer")).toHaveText(
    "The run reached its budget of model calls.",
  );
  await expect(studio.byTestId("final-answer")).toHaveCount(0);
  expect(runCalls).toBe(3);
  expect(workerCallFor(FINAL)).toHaveLength(0);
  expect(conductorCalls(isRefinement)).toHaveLength(0);
  await expectDone(studio.mainStep(0), ANSWERS[DRAFT]!);
  await expect(statusOf(studio.mainStep(1))).toHaveAttribute("data-status", "failed");
  await expect(studio.roundGroup(2)).toHaveCount(0);

  await studio.mainStep(1).getByTestId("nested-toggle").click();
  await expectDone(studio.nestedStep(0), ANSWERS[EDGE_CASES]!);
  // The nested step the budget stopped was never called: not run, not failed.
  await expect(statusOf(studio.nestedStep(1))).toHaveAttribute("data-status", "skipped");
  await expect(statusOf(studio.nestedStep(1))).toHaveText("not run");
});

test("a budget that stops the refinement round keeps round 1's answer and says why", async () => {
  // The plan and round 1 take five calls (plan, draft, nested plan, two nested steps); the
  // refinement plan is refused.
  const runCalls = await runWithBudget(5);

  await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[FINAL]!);
  await expect(studio.byTestId("end-reason")).toHaveText(
    "The run reached its budget of model calls.",
  );
  expect(runCalls).toBe(4);
  expect(conductorCalls(isRefinement)).toHaveLength(0);
  await expect(studio.roundGroup(2)).toHaveCount(0);
});

test("cancel during a nested worker stops both levels and ends the run", async () => {
  // The nested step's worker is held at a gate the test never opens: only a cancel ends the run.
  server.gate("held");
  script(REFINE_ALL, { [EDGE_CASES]: { content: "never sent", gate: "held" } });
  await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls: 0 });
  await studio.run();

  const toggle = studio.mainStep(1).getByTestId("nested-toggle");
  await toggle.click();
  await expect(statusOf(studio.nestedStep(0))).toHaveAttribute("data-status", "running");
  await expect.poll(() => workerCallFor(EDGE_CASES).length).toBe(1);
  await expect(statusOf(studio.mainStep(1))).toHaveAttribute("data-status", "running");
  await studio.cancel();

  await studio.waitIdle();
  await expect(studio.byTestId("no-answer")).toHaveText("The run was cancelled.");
  await expectDone(studio.mainStep(0), ANSWERS[DRAFT]!);
  await expect(statusOf(studio.mainStep(1))).toHaveAttribute("data-status", "cancelled");
  await expect(statusOf(studio.nestedStep(0))).toHaveAttribute("data-status", "cancelled");
  await expect(statusOf(studio.nestedStep(1))).toHaveAttribute("data-status", "cancelled");
  await expect(studio.roundGroup(2)).toHaveCount(0);
  expect(conductorCalls(isRefinement)).toHaveLength(0);
  expect(workerCallFor(FINAL)).toHaveLength(0);
});

test.describe("editing a later round or a nested workflow", () => {
  test("a nested workflow opens in the editor, is edited, and re-runs in place", async () => {
    script(ACCEPT);
    await openAndPlan({ rounds: 0, maxDepth: 1, maxCalls: 0 });
    await runToEnd();
    await studio.mainStep(1).getByTestId("nested-toggle").click();
    const conductorBefore = callsTo(server, CONDUCTOR).length;
    await studio.nestedGroups().getByTestId("edit-group").click();

    // The editor now holds the nested workflow alone, with its results.
    await expect(studio.byTestId("focus-banner")).toContainText("the nested workflow of step 2");
    await expect(studio.nodes()).toHaveCount(2);
    await expectDone(studio.node(1), ANSWERS[FINAL]!);
    await studio.selectNode(1);
    await studio.byTestId("subtask-input").fill(BETTER);
    await expect(statusOf(studio.node(1))).toHaveAttribute("data-status", "stale");
    await studio.byTestId("rerun-from").click();
    await expectDone(studio.node(1), ANSWERS[BETTER]!);

    // Only the edited step ran again, seeing the kept first step; the Conductor was not asked.
    expect(workerCallFor(BETTER)).toHaveLength(1);
    expect(lastUser(workerCallFor(BETTER)[0]!.body as ChatBody)).toContain(ANSWERS[EDGE_CASES]);
    expect(workerCallFor(EDGE_CASES)).toHaveLength(1);
    expect(callsTo(server, CONDUCTOR)).toHaveLength(conductorBefore);
    // The self-selected step now answers with the nested workflow's new answer, and so does the run.
    await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[BETTER]!);
    await studio.byTestId("focus-top").click();
    await expect(studio.byTestId("focus-banner")).toHaveCount(0);
    await expectDone(studio.mainStep(1), ANSWERS[BETTER]!);
  });

  test("a later round opens in the editor and re-runs with the previous round in view", async () => {
    script(REFINE_ALL);
    await openAndPlan({ rounds: 1, maxDepth: 1, maxCalls: 0 });
    await runToEnd();
    await expect(studio.roundGroup(2)).toBeVisible();
    await studio.roundGroup(2).getByTestId("edit-group").click();
    await expect(studio.byTestId("focus-banner")).toContainText("Round 2");
    await expect(studio.nodes()).toHaveCount(1);
    await studio.selectNode(0);
    await studio.byTestId("subtask-input").fill(RESTATE);
    await studio.run();
    await expectDone(studio.node(0), ANSWERS[RESTATE]!);
    // It saw round 1 (its access is "all"), and its answer is the run's, round 2 being the last.
    const call = workerCallFor(RESTATE)[0]!;
    expect(lastUser(call.body as ChatBody)).toContain("Previous round");
    await expect(studio.byTestId("final-answer")).toHaveText(ANSWERS[RESTATE]!);
    expect(conductorCalls(isRefinement)).toHaveLength(1);
  });
});
