// Issue 35's report minors: the Pareto x axis fits its costs (every cost $0 included), and every
// part of the Evaluate report can be reached at 1024 × 800 and smaller, nothing cut off.
import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import { storeSettings, storedWorker } from "./pages/settings.ts";
import { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { CONDUCTOR_MODEL, WORKERS, askedNumber, plusOneQuestions } from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER, CHECKER] = WORKERS;
const STRATEGIES = [`single:${SOLVER.name}`, `single:${CHECKER.name}`];

/** Free workers (price $0), the solver always right, the checker right below 3. */
async function openFree(page: import("@playwright/test").Page) {
  server.setDefault(SOLVER.model, (b) => ({
    content: `Answer: ${askedNumber(b) + 1}`,
    usage: { prompt_tokens: 50, completion_tokens: 5 },
  }));
  server.setDefault(CHECKER.model, (b) => ({
    content: `Answer: ${askedNumber(b) < 3 ? askedNumber(b) + 1 : 0}`,
    usage: { prompt_tokens: 50, completion_tokens: 5 },
  }));
  const free = { input: 0, output: 0 };
  await storeSettings(page, {
    pool: WORKERS.map((w, i) =>
      storedWorker(i, { ...w, kind: "openai", baseURL: server.baseURL, price: free }),
    ),
    conductor: { backend: "remote", baseURL: server.baseURL, model: CONDUCTOR_MODEL, price: free },
  });
  const studio = new StudioPage(page);
  await studio.goto();
  const evaluate = new EvaluatePage(page);
  await evaluate.open();
  await evaluate.importFile("numbers.jsonl", plusOneQuestions([1, 2, 3, 4]));
  await evaluate.choose(...STRATEGIES);
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished", { timeout: 30_000 });
  return { studio, evaluate };
}

test("the Pareto x axis fits costs that are all $0", async ({ page }) => {
  const { studio, evaluate } = await openFree(page);
  await expect(evaluate.byTestId("pareto-row-" + STRATEGIES[0])).toContainText("$0");
  const plot = evaluate.byTestId("pareto-plot");
  await expect(plot).toHaveAttribute("data-drawn", "true");
  await expect(plot).toHaveAttribute("data-xmax", /./);
  // An axis for points at $0 ends within a cent of them, not at $120.
  const xmax = Number(await plot.getAttribute("data-xmax"));
  expect(xmax).toBeGreaterThan(0);
  expect(xmax).toBeLessThan(0.01);
  expect(studio.errors).toEqual([]);
});

for (const size of [
  { width: 1024, height: 800 },
  { width: 800, height: 600 },
]) {
  test(`every part of the report can be reached at ${size.width} × ${size.height}`, async ({
    page,
  }, info) => {
    await page.setViewportSize(size);
    const { studio, evaluate } = await openFree(page);
    const view = evaluate.byTestId("evaluate-view");
    await page.screenshot({ path: info.outputPath("report-top.png") });
    // Nothing scrolls sideways, and the view itself scrolls to every part of the report.
    const sideways = await view.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    const report = evaluate.byTestId("eval-report-card");
    const parts = report.locator(":scope > *");
    const n = await parts.count();
    expect(n).toBeGreaterThan(3);
    for (let i = 0; i < n; i++) {
      const part = parts.nth(i);
      if (!(await part.isVisible())) continue;
      await part.evaluate((el) => el.scrollIntoView({ block: "end" }));
      const box = (await part.boundingBox())!;
      // Its bottom edge can be brought into the window (or, if taller, its top and bottom in turn).
      expect(box.y + Math.min(box.height, size.height), `part ${i}`).toBeLessThanOrEqual(
        size.height + 1,
      );
      expect(box.x + box.width, `part ${i}`).toBeLessThanOrEqual(size.width + 1);
      // Wider content scrolls sideways inside the part, so none of it is out of reach.
      const hidden = await part.evaluate(
        (el) =>
          el.scrollWidth > el.clientWidth + 1 &&
          !["auto", "scroll"].includes(getComputedStyle(el).overflowX),
      );
      expect(hidden, `part ${i} cut off on the right`).toBe(false);
    }
    await page.screenshot({ path: info.outputPath("report-bottom.png") });
    expect(studio.errors).toEqual([]);
  });
}
