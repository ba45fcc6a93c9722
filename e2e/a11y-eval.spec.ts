// axe on every Evaluate view (setup, running, report, an opened matrix cell) and on History and
// Compare, each in both themes: no serious or critical violation, text contrast (WCAG AA)
// included, and the theme button's accessible name is its visible label.
import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import { HistoryPage } from "./pages/history.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { seriousViolations } from "./support/axe.ts";
import { withTestServer } from "./support/server.ts";
import { openStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  WORKERS,
  askedNumber,
  conductorText,
  plusOneQuestions,
} from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const QUESTIONS = plusOneQuestions([3, 5, 8, 13]);
/** Calls take `latency.ms`; the first worker is right, the others right below 10. */
const latency = { ms: 0 };

function script() {
  latency.ms = 0;
  server.setDefault(CONDUCTOR_MODEL, () => ({
    content: conductorText(ATTEMPTS_THEN_JUDGE),
    latencyMs: latency.ms,
  }));
  WORKERS.forEach((w, i) =>
    server.setDefault(w.model, (b: ChatBody) => ({
      content: `${w.name}: working.\nAnswer: ${i === 0 || askedNumber(b) < 10 ? askedNumber(b) + 1 : 0}`,
      latencyMs: latency.ms,
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    })),
  );
}

/** Serious and critical axe violations under WCAG A and AA (contrast included), one line each. */
const violations = (page: Page, include?: string) =>
  seriousViolations(page, { include, wcag: true });

async function useTheme(studio: HistoryPage, theme: "light" | "dark") {
  await studio.useTheme(theme);
  // The theme button's accessible name is exactly what it shows.
  const toggle = studio.byTestId("theme-toggle");
  await expect(toggle).toHaveAccessibleName(((await toggle.textContent()) ?? "").trim());
}

async function start(page: Page, theme: "light" | "dark") {
  script();
  const studio = await openStudio(new HistoryPage(page), server);
  const evaluate = new EvaluatePage(page);
  await useTheme(studio, theme);
  await evaluate.open();
  await evaluate.importFile("numbers.jsonl", QUESTIONS);
  await evaluate.choose("conductor", `single:${WORKERS[1].name}`, "chain");
  return { studio, evaluate };
}

/** An evaluation run to its end, its report on screen. */
async function finished(page: Page, theme: "light" | "dark") {
  const setUp = await start(page, theme);
  await setUp.evaluate.start();
  await expect(setUp.evaluate.byTestId("eval-done")).toHaveText("12/12", { timeout: 30_000 });
  return setUp;
}

/** After an evaluation, two runs of the user's own; History open. */
async function withRuns(page: Page, theme: "light" | "dark") {
  const setUp = await finished(page, theme);
  const { studio, evaluate } = setUp;
  await evaluate.byTestId("evaluate-close").click();
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  await studio.run();
  await studio.waitIdle();
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(2);
  return setUp;
}

for (const theme of ["light", "dark"] as const) {
  test(`Evaluate setup (${theme})`, async ({ page }) => {
    const { studio } = await start(page, theme);
    await expect(page.getByTestId("eval-calls-total")).toBeVisible();
    expect(await violations(page, "[data-testid=evaluate-view]")).toEqual([]);
    expect(studio.errors).toEqual([]);
  });

  test(`Evaluate while running (${theme})`, async ({ page }) => {
    const { studio, evaluate } = await start(page, theme);
    latency.ms = 60_000;
    await evaluate.start();
    await expect(evaluate.byTestId("eval-summary")).toBeVisible();
    await expect(evaluate.progress()).toHaveAttribute("data-phase", "running");
    // The progress bar has a name and says how far it is.
    const bar = evaluate.progress().getByRole("progressbar");
    await expect(bar).toHaveAccessibleName("Evaluation progress");
    await expect(bar).toHaveAttribute("aria-valuetext", "0 of 12 items");
    expect(await violations(page, "[data-testid=evaluate-view]")).toEqual([]);
    await evaluate.byTestId("eval-cancel").click();
    expect(studio.errors).toEqual([]);
  });

  test(`Evaluate report (${theme})`, async ({ page }) => {
    const { studio, evaluate } = await finished(page, theme);
    await expect(evaluate.byTestId("pareto-plot")).toHaveAttribute("data-drawn", "true");
    expect(await violations(page, "[data-testid=evaluate-view]")).toEqual([]);
    expect(studio.errors).toEqual([]);
  });

  test(`Evaluate matrix cell (${theme})`, async ({ page }) => {
    const { studio, evaluate } = await finished(page, theme);
    await evaluate.cell("q4", "chain").click();
    await expect(evaluate.byTestId("item-run")).toBeVisible();
    expect(await violations(page, "[data-testid=evaluate-view]")).toEqual([]);
    expect(studio.errors).toEqual([]);
  });

  test(`History with an evaluation and two runs (${theme})`, async ({ page }) => {
    const { studio } = await withRuns(page, theme);
    expect(await violations(page)).toEqual([]);
    expect(studio.errors).toEqual([]);
  });

  test(`Compare (${theme})`, async ({ page }) => {
    const { studio } = await withRuns(page, theme);
    await studio.entry(0).getByTestId("history-select").check();
    await studio.entry(1).getByTestId("history-select").check();
    await studio.byTestId("history-compare").click();
    await expect(studio.byTestId("compare")).toBeVisible();
    expect(await violations(page, "[data-testid=compare]")).toEqual([]);
    expect(studio.errors).toEqual([]);
  });
}
