import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, Page } from "@playwright/test";
import { chromium } from "@playwright/test";
import { serveStatic } from "./app.ts";

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--no-first-run"];
const FIXTURE = resolve(import.meta.dirname, "../src/engine/run/fixtures/run-v2-nested.json");

/** An export whose last step (and answer) is `output`, built from the v2 fixture. */
export function runFileWith(output: string): string {
  const file = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
    run: { answer: string; rounds: { steps: { output: string; nested: unknown }[] }[] };
  };
  const steps = file.run.rounds[0]!.steps;
  for (const st of steps) st.nested = null;
  steps[steps.length - 1]!.output = output;
  file.run.answer = output;
  return JSON.stringify(file);
}

interface ProbeWindow extends Window {
  __longTasks: number[];
}

const PROBE = `
  window.__longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: "longtask", buffered: true });
`;

const takeTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as ProbeWindow;
    const t = w.__longTasks;
    w.__longTasks = [];
    return t;
  });

function fmt(name: string, ms: number, tasks: number[]): string {
  const longest = tasks.length ? Math.max(...tasks).toFixed(0) : "-";
  return `  ${name.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms  ${String(tasks.length).padStart(4)} long tasks  longest ${longest.padStart(6)} ms`;
}

async function openAndMeasure(
  page: Page,
  name: string,
  output: string,
  text: string,
): Promise<string> {
  // The file comes over HTTP into a File in the page: Playwright's setInputFiles would decode
  // megabytes of base64 on the page's main thread, a long task that is not the app's.
  await page.route("**/__bench/file.json", (route) =>
    route.fulfill({ body: text, contentType: "application/json" }),
  );
  await page.evaluate(async () => {
    const blob = await (await fetch("/__bench/file.json")).blob();
    (window as unknown as { __file: File }).__file = new File([blob], "run.json");
  });
  await page.unroute("**/__bench/file.json");
  await takeTasks(page);
  const t0 = Date.now();
  await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>("[data-testid=import-input]")!;
    const dt = new DataTransfer();
    dt.items.add((window as unknown as { __file: File }).__file);
    input.files = dt.files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  // Over 10 MB the studio asks first; the answer shown then starts with the new text.
  if (text.length > 10 * 1024 * 1024) await page.getByTestId("confirm-large-file").click();
  await page
    .getByTestId("final-answer")
    .filter({ hasText: output.slice(0, 20) })
    .waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  const opened = fmt(`open: ${name}`, Date.now() - t0, await takeTasks(page));
  const t1 = Date.now();
  await page.locator('[data-testid="step-node"][data-index="1"] .step-head').click();
  await page.getByTestId("inspector-output").waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  const clicked = fmt(`  then click its step`, Date.now() - t1, await takeTasks(page));
  await page.locator('[data-testid="step-node"][data-index="0"] .step-head').click();
  return `${opened}\n${clicked}`;
}

/** "Show all" on the truncated answer on screen: how long drawing the rest blocks the page. */
async function showAllMeasure(page: Page): Promise<string> {
  await takeTasks(page);
  const t0 = Date.now();
  await page.getByTestId("final-answer").getByTestId("show-all").click();
  await page
    .getByTestId("final-answer")
    .locator('[data-testid="long-text"][data-complete="true"]')
    .waitFor();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  return fmt(`  then "Show all" of the answer`, Date.now() - t0, await takeTasks(page));
}

/** Large outputs in the built app: how long opening them and inspecting their step blocks the page. */
export async function benchContent(dist: string): Promise<void> {
  const executablePath = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  const app = await serveStatic(dist);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: PROBE });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.goto(app.url);
    await page.getByTestId("import-input").waitFor({ state: "attached" });
    console.log("\nLarge content (long tasks > 50 ms; target: every task < 200 ms)");
    const line = "x".repeat(100_000);
    const prose = (mb: number) =>
      Array.from(
        { length: Math.ceil((mb * 1e6) / 80) },
        (_, i) => `Line ${i} of a long answer, **bold** and \`code\`.`,
      ).join("\n");
    const cases: [string, string][] = [
      ["100,000-character unbroken line", line],
      ["1 MB answer", prose(1)],
      ["2 MB answer", prose(2)],
      ["3 MB answer", prose(3)],
      ["10 MB answer", prose(10)],
    ];
    for (const [name, text] of cases) {
      console.log(await openAndMeasure(page, name, text, runFileWith(text)));
      if (name === "2 MB answer") console.log(await showAllMeasure(page));
    }
  } catch (e: unknown) {
    console.log(`\nContent benchmark failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  } finally {
    await browser?.close();
    await app.close();
  }
}
