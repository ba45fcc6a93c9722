import { expect, test } from "@playwright/test";
import type { Locator } from "@playwright/test";
import { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import {
  CHAIN,
  CONDUCTOR_MODEL,
  QUESTION,
  WORKERS,
  callsTo,
  conductorText,
  piecesOf,
  scriptPlanAndAnswers,
} from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;

withTestServer((s) => (server = s));
test.afterEach(() => {
  expect(studio.errors).toEqual([]);
});

const [SOLVER, CHECKER] = WORKERS.map((w) => w.model) as [string, string, string];
const THOUGHT =
  "SECRET-REASONING: trial division by 2, 3, 5, 7, 11 and 13 leaves remainders; 17 goes in 23 times.";
const ANSWER = "391 = 17 × 23, so it is not prime.";

/** A node's Thinking part, opened so its text shows. */
async function openThinking(node: Locator): Promise<Locator> {
  const part = node.getByTestId("step-thinking");
  await expect(part).toBeVisible();
  if ((await part.getAttribute("open")) === null) await part.locator("summary").click();
  return part.getByTestId("step-thinking-text");
}

test("a reasoning worker's thinking streams into its Thinking part and stays out of the next step", async ({
  page,
}) => {
  for (const w of WORKERS) server.setDefault(w.model, `Answer from ${w.name}.`);
  server.script(CONDUCTOR_MODEL, {
    reasoning: ["PLAN-REASONING: a chain of three ", "is enough here."],
    reasoningField: "reasoning",
    content: conductorText(CHAIN),
  });
  // The reasoning streams slowly in `reasoning_content` (DeepSeek, vLLM), then the answer.
  server.setDefault(SOLVER, {
    reasoning: piecesOf(THOUGHT, 3),
    chunks: [ANSWER],
    chunkDelayMs: 40,
    usage: { prompt_tokens: 60, completion_tokens: 90 },
  });
  studio = new StudioPage(page);
  await studio.seed(server.baseURL);
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.plan(3);

  // The Conductor's reasoning sits under its own Thinking part, not in the raw plan.
  await expect(studio.byTestId("conductor-thinking")).toContainText("Thinking");
  await expect(studio.byTestId("conductor-raw")).not.toContainText("PLAN-REASONING");

  await studio.run();
  const node = studio.node(0);
  await expect(node.getByTestId("step-thinking")).toBeVisible();
  // While the step still runs, the Thinking part already holds part of the reasoning and the node
  // shows no answer yet.
  await expect(studio.status(0)).toHaveAttribute("data-status", "running");
  const thinking = await openThinking(node);
  await expect(thinking).toContainText("SECRET-REASONING");
  await expect(node.getByTestId("step-thinking").locator("summary")).toContainText("Thinking…");

  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(thinking).toHaveText(THOUGHT);
  await expect(studio.output(0)).toHaveText(ANSWER);
  await studio.waitIdle();

  // What the next step read (at the server): the answer, never the reasoning.
  const read = JSON.stringify(callsTo(server, CHECKER)[0]?.body);
  expect(read).toContain(ANSWER);
  expect(read).not.toContain("SECRET-REASONING");
  expect(read).not.toContain("PLAN-REASONING");

  // The inspector shows the same reasoning in full.
  await studio.selectNode(0);
  const inspector = studio.byTestId("inspector-thinking");
  await inspector.locator("summary").click();
  await expect(studio.byTestId("inspector-thinking-text")).toHaveText(THOUGHT);

  // And the export keeps it per step and for the plan.
  const exported = await studio.exportRun();
  expect(exported.text).toContain("SECRET-REASONING");
  expect(exported.text).toContain("PLAN-REASONING");
});

test("a 429 shows the visible retry state, then the retried answer", async ({ page }) => {
  scriptPlanAndAnswers(server, CHAIN);
  server.script(SOLVER, { status: 429, retryAfter: "2" }, "Recovered answer.");
  studio = new StudioPage(page);
  await studio.seed(server.baseURL);
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.plan(3);

  await studio.run();
  const note = studio.node(0).getByTestId("step-retry");
  // Retry-After: 2, counted down on the node.
  await expect(note).toHaveText(/^↻ retrying 2 of 4 (in (2|1|0\.\d) s|now) after 429$/);
  await expect(note).toHaveAttribute("title", /rate limiting/);
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(note).toHaveCount(0);
  await expect(studio.output(0)).toHaveText("Recovered answer.");
  expect(callsTo(server, SOLVER)).toHaveLength(2);
  await studio.waitIdle();
});

test("cancel closes the worker's connection while it waits for the first byte", async ({
  page,
}) => {
  scriptPlanAndAnswers(server, CHAIN);
  server.setDefault(SOLVER, { content: "never sent", latencyMs: 20_000 });
  studio = new StudioPage(page);
  await studio.seed(server.baseURL);
  await studio.goto();
  await studio.ask(QUESTION);
  await studio.plan(3);

  await studio.run();
  await expect.poll(() => callsTo(server, SOLVER).length).toBe(1);
  await studio.cancel();
  await expect(studio.status(0)).toHaveAttribute("data-status", "cancelled");
  await expect
    .poll(() => server.disconnects)
    .toEqual([expect.objectContaining({ model: SOLVER, phase: "waiting" })]);
  await studio.waitIdle();
});
