// Issue 22's Evaluate items, as a new user meets them: strategies explained where chosen, the
// setup in view while running, a prompt Pause that pays for nothing twice, a paused evaluation
// that reads whole after a reload, a matrix cell that opens beside the report without touching
// the user's draft, and a Pareto plot that names its points and reads in the dark theme.
import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import { StudioPage } from "./pages/studio.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { openStudio } from "./support/studio.ts";
import {
  CONDUCTOR_MODEL,
  WORKERS,
  askedNumber,
  chatCalls,
  conductorText,
} from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER, CHECKER, JUDGE] = WORKERS;
const NUMBERS = [3, 5, 8, 13, 21, 34];
const QUESTIONS = NUMBERS.map((n, i) =>
  JSON.stringify({ id: `q${i + 1}`, problem: `What is ${n} plus one?`, solution: String(n + 1) }),
).join("\n");

/** Every call takes `latency.ms`; the solver is right, the checker right below 10, the judge never. */
const latency = { ms: 0 };
function script() {
  latency.ms = 0;
  server.setDefault(CONDUCTOR_MODEL, () => ({
    content: conductorText({
      model_id: [0, 1],
      subtasks: ["Solve it.", "Check the answer above and give the final one."],
      access_list: [[], "all"],
    }),
    latencyMs: latency.ms,
  }));
  const reply = (answer: (n: number) => number) => (b: ChatBody) => ({
    content: `Working.\nAnswer: ${answer(askedNumber(b))}`,
    latencyMs: latency.ms,
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  });
  server.setDefault(
    SOLVER.model,
    reply((n) => n + 1),
  );
  server.setDefault(
    CHECKER.model,
    reply((n) => (n < 10 ? n + 1 : 0)),
  );
  server.setDefault(
    JUDGE.model,
    reply(() => 0),
  );
}

const chats = () => chatCalls(server);
/** Calls the server answered in full: what was paid for. */
const completed = () => chats().length - server.disconnects.length;

async function setUp(page: Page) {
  script();
  const studio = await openStudio(new StudioPage(page), server);
  return { studio, evaluate: new EvaluatePage(page) };
}

/** Opens Evaluate with the six numbers imported. */
async function openNumbers(evaluate: EvaluatePage) {
  await evaluate.open();
  await evaluate.importFile("numbers.jsonl", QUESTIONS);
}

test("each strategy says who it calls and how many calls a question costs, and the total is what the server sees", async ({
  page,
}) => {
  const { studio, evaluate } = await setUp(page);
  await evaluate.open();
  await expect(evaluate.byTestId("strategy-about-moa")).toHaveText(
    `${SOLVER.name}, ${CHECKER.name} and ${JUDGE.name} each answer on their own; ${SOLVER.name} checks and combines their answers (Mixture-of-Agents).`,
  );
  await expect(evaluate.byTestId("strategy-calls-moa")).toHaveText("4 calls a question");
  await expect(evaluate.byTestId("strategy-about-chain")).toHaveText(
    `${SOLVER.name} answers, ${CHECKER.name} checks that answer, ${JUDGE.name} gives the final answer.`,
  );
  await expect(evaluate.byTestId("strategy-calls-chain")).toHaveText("3 calls a question");
  await expect(evaluate.byTestId("strategy-calls-best-of-n")).toHaveText("4 calls a question");
  await expect(evaluate.byTestId(`strategy-calls-single:${CHECKER.name}`)).toHaveText(
    "1 call a question",
  );
  await expect(evaluate.byTestId("strategy-calls-conductor")).toHaveText("2–6 calls a question");
  await expect(evaluate.byTestId("strategy-about-conductor")).toContainText(
    `from ${SOLVER.name}, ${CHECKER.name} and ${JUDGE.name}`,
  );
  // The description is the checkbox's: a screen reader hears it with the choice.
  await expect(evaluate.byTestId("strategy-moa")).toHaveAccessibleDescription(/Mixture-of-Agents/);
  // With no workflow on the canvas, "this workflow" says why it cannot run.
  await expect(evaluate.byTestId("strategy-about-workflow")).toHaveText(
    "The studio has no workflow to use as a template.",
  );

  await evaluate.importFile("numbers.jsonl", QUESTIONS);
  await evaluate.choose("moa", "chain");
  await expect(evaluate.byTestId("eval-calls-total")).toHaveText(
    "6 question(s) × 1 repeat(s) × 2 strategies: 42 model calls.",
  );
  await evaluate.start();
  await expect(evaluate.byTestId("eval-done")).toHaveText("12/12", { timeout: 30_000 });
  expect(completed()).toBe(42);
  expect(studio.errors).toEqual([]);
});

test("the setup stays in view, read-only, while an evaluation runs", async ({ page }) => {
  const { studio, evaluate } = await setUp(page);
  await openNumbers(evaluate);
  await evaluate.choose("conductor", "chain");
  latency.ms = 60_000;
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "running");
  const summary = evaluate.byTestId("eval-summary");
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId("eval-summary-questions")).toHaveText("6 from numbers.jsonl");
  await expect(summary.getByTestId("eval-summary-columns")).toContainText("question ← problem");
  await expect(summary.getByTestId("eval-summary-columns")).toContainText("answer ← solution");
  await expect(summary.getByTestId("eval-summary-strategy-chain")).toContainText(
    "3 calls a question",
  );
  await expect(summary.getByTestId("eval-summary-strategy-conductor")).toBeVisible();
  await expect(summary.locator("input, select, textarea")).toHaveCount(0);
  await expect(evaluate.byTestId("eval-start")).toHaveCount(0);
  await evaluate.byTestId("eval-cancel").click();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "cancelled");
  expect(studio.errors).toEqual([]);
});

test("Pause stops in-flight items at once; after a reload the paused evaluation reads whole and resumes paying for nothing twice", async ({
  page,
}) => {
  const { studio, evaluate } = await setUp(page);
  await openNumbers(evaluate);
  await evaluate.choose("conductor", "chain");
  latency.ms = 700;
  await evaluate.start();

  // Pause once some items are part-way (a plan or a first step done, the next call in flight).
  await expect.poll(() => completed(), { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
  await evaluate.byTestId("eval-pause").click();
  // The calls in flight are aborted (the server sees them leave), not waited out.
  await expect(evaluate.progress()).toHaveAttribute("data-running", "0");
  await expect(evaluate.progress()).toContainText("Paused");
  expect(server.disconnects.length).toBeGreaterThan(0);
  const done = await evaluate.done();
  expect(done).toBeLessThan(12);

  await page.reload();
  await evaluate.open();
  await expect(evaluate.byTestId("eval-resumable")).toContainText(`stopped at ${done}/12`);
  // The stopped evaluation shows what it is: questions, columns, strategies; every question is a
  // row of the matrix and every strategy a column, run or not.
  await expect(evaluate.byTestId("eval-summary-questions")).toHaveText("6 from numbers.jsonl");
  await expect(evaluate.byTestId("eval-summary-columns")).toContainText("question ← problem");
  await expect(evaluate.byTestId("eval-summary-strategy-chain")).toBeVisible();
  await expect(evaluate.byTestId("eval-summary-strategy-conductor")).toBeVisible();
  const matrix = evaluate.byTestId("eval-matrix");
  await expect(matrix.locator("tbody tr")).toHaveCount(6);
  await expect(matrix.locator("thead th")).toHaveText(["Question", "conductor", "chain"]);

  latency.ms = 0;
  await evaluate.byTestId("eval-resume-stored").click();
  await expect(evaluate.byTestId("eval-done")).toHaveText("12/12", { timeout: 30_000 });
  // Each item's calls were answered once: 6 x (plan + 2 steps) + 6 x 3 chain steps. A call cut by
  // the pause was not answered (not paid for) and ran again; finished plans and steps did not.
  expect(completed()).toBe(36);
  await expect(evaluate.accuracy("chain")).toHaveText("0.0%");
  await expect(evaluate.accuracy("conductor")).toHaveText("50.0%");
  expect(studio.errors).toEqual([]);
});

test("Pause and Resume in the same page: the cut items continue from their finished steps", async ({
  page,
}) => {
  const { studio, evaluate } = await setUp(page);
  await openNumbers(evaluate);
  await evaluate.choose("chain");
  latency.ms = 500;
  await evaluate.start();
  await expect.poll(() => completed(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await evaluate.byTestId("eval-pause").click();
  await expect(evaluate.progress()).toHaveAttribute("data-running", "0");
  expect(server.disconnects.length).toBeGreaterThan(0);
  latency.ms = 0;
  await evaluate.byTestId("eval-resume").click();
  await expect(evaluate.byTestId("eval-done")).toHaveText("6/6", { timeout: 30_000 });
  // 6 chains of 3 steps, each step answered once.
  expect(completed()).toBe(18);
  expect(studio.errors).toEqual([]);
});

test("a matrix cell opens the item beside its run and goes back to the report; the user's draft is untouched", async ({
  page,
}) => {
  const { studio, evaluate } = await setUp(page);
  await studio.ask("My own question, half typed");
  await openNumbers(evaluate);
  await evaluate.choose("chain");
  await evaluate.start();
  await expect(evaluate.byTestId("eval-done")).toHaveText("6/6", { timeout: 30_000 });

  await evaluate.cell("q4", "chain").click();
  const item = evaluate.byTestId("eval-item");
  await expect(item).toBeVisible();
  await expect(evaluate.byTestId("eval-matrix")).toBeHidden();
  await expect(item.getByTestId("eval-item-question")).toContainText("What is 13 plus one?");
  await expect(item.getByTestId("eval-item-reference")).toHaveText("14");
  await expect(item.getByTestId("eval-item-extracted")).toHaveText("0");
  await expect(item.getByTestId("eval-item-verdict")).toHaveAttribute("data-tone", "wrong");
  await expect(item.getByTestId("eval-item-verdict")).toContainText("Wrong");
  // The run beside it: the chain's three steps with their workers and outputs.
  await expect(item.getByTestId("item-run").locator("[data-testid^=item-step-]")).toHaveCount(3);
  await expect(item.getByTestId("item-step-2")).toContainText(JUDGE.name);
  await expect(item.getByTestId("item-step-2")).toContainText("Answer: 0");
  await expect(item.getByTestId("eval-item-back")).toBeFocused();

  // Back (Esc too) to the report, to the cell that was opened.
  await page.keyboard.press("Escape");
  await expect(item).toBeHidden();
  await expect(evaluate.byTestId("eval-matrix")).toBeVisible();
  await evaluate.cell("q1", "chain").click();
  await expect(item.getByTestId("eval-item-verdict")).toHaveAttribute("data-tone", "wrong");
  await item.getByTestId("eval-item-back").click();
  await expect(evaluate.cell("q1", "chain")).toBeFocused();

  // The studio is as the user left it: their question, no graph put in its place.
  await evaluate.byTestId("evaluate-close").click();
  await expect(studio.byTestId("question")).toHaveValue("My own question, half typed");
  await expect(studio.nodes()).toHaveCount(0);
  expect(studio.errors).toEqual([]);
});

/** The brightest pixel (0..255 luminance) in a region of the Pareto plot's canvas. */
function brightest(page: Page, region: { x: number; y: number; w: number; h: number }) {
  return page.evaluate((r) => {
    const canvas = document.querySelector<HTMLCanvasElement>("[data-testid=pareto-plot] canvas")!;
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const data = canvas
      .getContext("2d")!
      .getImageData(r.x * scale, r.y * scale, r.w * scale, r.h * scale).data;
    let max = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3]! > 128)
        max = Math.max(max, 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!);
    return max;
  }, region);
}

test("the Pareto plot reads out name, accuracy and cost, has a table, and its axes read in the dark theme", async ({
  page,
}) => {
  const { studio, evaluate } = await setUp(page);
  await openNumbers(evaluate);
  const checker = `single:${CHECKER.name}`;
  await evaluate.choose(`single:${SOLVER.name}`, checker, "chain");
  await evaluate.start();
  await expect(evaluate.byTestId("eval-done")).toHaveText("18/18", { timeout: 30_000 });

  // The text alternative: one row per strategy with its accuracy and cost.
  await expect(evaluate.byTestId(`pareto-row-${checker}`)).toContainText("50.0%");
  await expect(evaluate.byTestId("pareto-row-chain")).toContainText("0.0%");
  await expect(evaluate.byTestId("pareto-plot")).toHaveAttribute(
    "aria-label",
    new RegExp(`${checker}: 50\\.0% accuracy at \\$0\\.\\d+ a question`),
  );
  // No uPlot legend of raw values ("Value: 0 · strategy: 28.571").
  await expect(evaluate.byTestId("pareto").locator(".u-legend")).toHaveCount(0);

  // Pointing at the chain's point (the dearest, at 0%) reads it out by name.
  const plot = evaluate.byTestId("pareto-plot").locator(".u-over");
  const box = (await plot.boundingBox())!;
  await page.mouse.move(box.x + box.width - 2, box.y + box.height - 2);
  await expect(evaluate.byTestId("pareto-readout")).toHaveText(
    /^chain: 0\.0% accuracy at \$0\.\d+ a question$/,
  );

  // Dark theme: the axes' tick labels are drawn light on the dark page.
  await evaluate.byTestId("evaluate-close").click();
  if ((await page.locator("html").getAttribute("data-theme")) !== "dark")
    await studio.byTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await evaluate.open();
  await expect(evaluate.byTestId("pareto-plot")).toHaveAttribute("data-drawn", "true");
  const canvasBox = (await evaluate.byTestId("pareto-plot").locator("canvas").boundingBox())!;
  const over = (await plot.boundingBox())!;
  // The y axis: left of the plotting area; the x axis: below it.
  const yAxis = await brightest(page, { x: 0, y: 0, w: over.x - canvasBox.x - 2, h: over.height });
  const xAxis = await brightest(page, {
    x: over.x - canvasBox.x,
    y: over.y - canvasBox.y + over.height + 2,
    w: over.width,
    h: canvasBox.y + canvasBox.height - over.y - over.height - 4,
  });
  expect(yAxis).toBeGreaterThan(180);
  expect(xAxis).toBeGreaterThan(180);
  expect(studio.errors).toEqual([]);
});

test("strategies at the same accuracy and cost keep their names apart on the Pareto plot", async ({
  page,
}) => {
  const { studio, evaluate } = await setUp(page);
  // The checker is right everywhere too: both single strategies sit on one point.
  server.setDefault(CHECKER.model, (b: ChatBody) => ({
    content: `Working.\nAnswer: ${askedNumber(b) + 1}`,
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  }));
  await openNumbers(evaluate);
  await evaluate.choose(`single:${SOLVER.name}`, `single:${CHECKER.name}`);
  await evaluate.start();
  await expect(evaluate.byTestId("eval-done")).toHaveText("12/12", { timeout: 30_000 });
  const plot = evaluate.byTestId("pareto-plot");
  await expect(plot).toHaveAttribute("data-labels", /.+/);
  const labels = JSON.parse((await plot.getAttribute("data-labels"))!) as {
    left: number;
    top: number;
    w: number;
    h: number;
  }[];
  expect(labels).toHaveLength(2);
  const [a, b] = labels as [(typeof labels)[0], (typeof labels)[0]];
  const apart =
    a.left + a.w <= b.left ||
    b.left + b.w <= a.left ||
    a.top + a.h <= b.top ||
    b.top + b.h <= a.top;
  expect(apart).toBe(true);
  // Both inside the canvas.
  const canvas = (await plot.locator("canvas").boundingBox())!;
  for (const l of labels) {
    expect(l.left).toBeGreaterThanOrEqual(0);
    expect(l.left + l.w).toBeLessThanOrEqual(canvas.width);
  }
  expect(studio.errors).toEqual([]);
});
