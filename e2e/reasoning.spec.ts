import { expect, test } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
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

withStudio((s) => ({ server, studio } = s));

const [SOLVER, CHECKER] = WORKERS.map((w) => w.model) as [string, string, string];
const THOUGHT =
  "SECRET-REASONING: trial division by 2, 3, 5, 7, 11 and 13 leaves remainders; 17 goes in 23 times.";
const ANSWER = "391 = 17 × 23, so it is not prime.";

/** Asks QUESTION and waits for the scripted three-step plan. */
async function askAndPlan(): Promise<void> {
  await studio.ask(QUESTION);
  await studio.plan(3);
}

/** A node's Thinking part, opened so its text shows. */
async function openThinking(node: Locator): Promise<Locator> {
  const part = node.getByTestId("step-thinking");
  await expect(part).toBeVisible();
  if ((await part.getAttribute("open")) === null) await part.locator("summary").click();
  return part.getByTestId("step-thinking-text");
}

test("a reasoning worker's thinking streams into its Thinking part and stays out of the next step", async () => {
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
  await askAndPlan();

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

/** Records every text a test id's element shows, as the page changes (read back with `seen`). */
async function recordTexts(page: Page, selectors: Record<string, string>): Promise<void> {
  await page.evaluate((sel) => {
    const seen: Record<string, string[]> = {};
    const note = () => {
      for (const [name, css] of Object.entries(sel)) {
        const text = document.querySelector(css)?.textContent;
        const list = (seen[name] ??= []);
        if (text && list.at(-1) !== text) list.push(text);
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    (window as unknown as { seenTexts: typeof seen }).seenTexts = seen;
  }, selectors);
}

const seen = (page: Page) =>
  page.evaluate(() => (window as unknown as { seenTexts: Record<string, string[]> }).seenTexts);

test("a bare </think> (DeepSeek-R1: the prompt opened the block) moves what streamed so far into Thinking", async ({
  page,
}) => {
  for (const w of WORKERS) server.setDefault(w.model, `Answer from ${w.name}.`);
  // No `<think>` on the wire: the chat template held it. The closing tag is split across chunks.
  server.script(CONDUCTOR_MODEL, {
    chunks: ["R1-PLAN-THOUGHT: a chain", " of three.\n</thi", "nk>\n\n", conductorText(CHAIN)],
    chunkDelayMs: 100,
  });
  const thought = "R1-SECRET: divide by 17 and get 23, so 391 is composite.\n";
  const answer = "R1-ANSWER: 391 = 17 × 23, so it is not prime.";
  server.setDefault(SOLVER, {
    chunks: [...piecesOf(thought, 12), "</th", "ink>\n\n", ...piecesOf(answer, 4)],
    chunkDelayMs: 120,
    usage: {
      prompt_tokens: 60,
      completion_tokens: 90,
      completion_tokens_details: { reasoning_tokens: 70 },
    },
  });
  await recordTexts(page, {
    raw: '[data-testid="conductor-raw"]',
    output: '[data-testid="step-node"][data-index="0"] [data-testid="step-output"]',
  });
  await studio.ask(QUESTION);
  await studio.plan(3);
  await expect(studio.byTestId("conductor-raw")).not.toContainText("R1-PLAN-THOUGHT");
  await studio.byTestId("conductor-thinking").locator("summary").click();
  await expect(studio.byTestId("conductor-thinking-text")).toHaveText(
    "R1-PLAN-THOUGHT: a chain of three.\n",
  );

  await studio.run();
  const node = studio.node(0);
  // The answer after the tag streams while the step runs, and the Thinking part holds what came
  // before it.
  await expect(studio.output(0)).toContainText("R1-ANS");
  await expect(studio.status(0)).toHaveAttribute("data-status", "running");
  const thinking = await openThinking(node);
  await expect(thinking).toHaveText(thought);
  await expect(studio.output(0)).not.toContainText("R1-SECRET");

  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(studio.output(0)).toHaveText(answer);
  await studio.waitIdle();

  // Everything the page ever showed: the reasoning streamed as output until its closing tag came
  // (nothing could tell before), the tag itself never showed, and no text after it shows the
  // reasoning again.
  const texts = await seen(page);
  for (const [name, before, after] of [
    ["raw", "R1-PLAN-THOUGHT", "model_id"],
    ["output", "R1-SECRET", "R1-ANS"],
  ] as const) {
    const shown = texts[name] ?? [];
    expect(
      shown.some((t) => t.includes(before)),
      name,
    ).toBe(true);
    expect(
      shown.filter((t) => t.includes("</")),
      name,
    ).toEqual([]);
    expect(
      shown.filter((t) => t.includes(after) && t.includes(before)),
      name,
    ).toEqual([]);
  }
  const read = JSON.stringify(callsTo(server, CHECKER)[0]?.body);
  expect(read).toContain(answer);
  expect(read).not.toContain("R1-SECRET");

  // The totals count the reasoning tokens the solver reported.
  await expect(studio.byTestId("totals-reasoning")).toHaveText("(of which 70 reasoning)");
});

test("a 429 shows the visible retry state, then the retried answer", async () => {
  scriptPlanAndAnswers(server, CHAIN);
  server.script(SOLVER, { status: 429, retryAfter: "2" }, "Recovered answer.");
  await askAndPlan();

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

test("cancel closes the worker's connection while it waits for the first byte", async () => {
  scriptPlanAndAnswers(server, CHAIN);
  server.gate("held");
  server.setDefault(SOLVER, { content: "never sent", gate: "held" });
  await askAndPlan();

  await studio.run();
  await expect.poll(() => callsTo(server, SOLVER).length).toBe(1);
  await studio.cancel();
  await expect(studio.status(0)).toHaveAttribute("data-status", "cancelled");
  await expect
    .poll(() => server.disconnects)
    .toEqual([expect.objectContaining({ model: SOLVER, phase: "waiting" })]);
  await studio.waitIdle();
});
