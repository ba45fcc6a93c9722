import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Browser, Page } from "@playwright/test";
import { chromium } from "@playwright/test";
import { MAX_POOL_WORKERS } from "../src/engine/pool/invariants.ts";
import type { Worker } from "../src/engine/schema/worker.ts";
import { SETTINGS_KEY } from "../src/state/storage/persist.ts";
import type { StaticServer } from "./app.ts";
import { serveStatic } from "./app.ts";

/**
 * The pool editor with a large pool, in the built app in headless Chromium. Imports refuse pools
 * over MAX_POOL_WORKERS; this seeds stored settings directly (as a pool saved before the cap would
 * be), so the editor is measured at 1,000 workers too: it must stay linear in the pool size.
 */
const SIZES = [MAX_POOL_WORKERS, 1000];
const KEYSTROKES = 15;
const DEADLINE_MS = 150_000;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

function pool(n: number): Worker[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `w${i}`,
    name: `Worker ${i}`,
    kind: "openai",
    provider: i % 2 ? "openai" : "openrouter",
    baseURL: i % 2 ? "https://api.openai.com/v1" : "https://openrouter.ai/api/v1",
    model: `model-${i}`,
    temperature: 0.2,
    maxTokens: 1024,
    prefill: false,
  }));
}

/**
 * Types one character into the field and returns the milliseconds from the key press to the
 * first frame after it (the event, the store update, React's render and the layout).
 */
async function keystroke(page: Page, field: string, worker: number): Promise<number> {
  const input = page.locator(`[data-worker-id="w${worker}"] [data-testid="${field}"]`);
  await input.focus();
  await page.evaluate(() => {
    const w = window as unknown as { __key: Promise<number> };
    w.__key = new Promise((resolve) => {
      window.addEventListener(
        "keydown",
        () => {
          const start = performance.now();
          // The frame after the input's update has rendered: two rAFs, the second after paint.
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve(performance.now() - start)),
          );
        },
        { once: true, capture: true },
      );
    });
  });
  await page.keyboard.press("x");
  return page.evaluate(() => (window as unknown as { __key: Promise<number> }).__key);
}

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const max = sorted[sorted.length - 1] ?? NaN;
  return `median ${median.toFixed(0).padStart(4)} ms, max ${max.toFixed(0).padStart(4)} ms`;
}

async function measure(browser: Browser, app: StaticServer, n: number): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const settings = JSON.stringify({ pool: pool(n), conductor: {} });
  await context.addInitScript({
    content: `localStorage.setItem(${JSON.stringify(SETTINGS_KEY)}, ${JSON.stringify(settings)});`,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto(app.url);
  await page.getByTestId("open-settings").waitFor();
  const t0 = Date.now();
  await page.getByTestId("open-settings").click();
  await page.locator('[data-worker-id="w0"]').waitFor();
  const firstMs = Date.now() - t0;
  await page.locator(`[data-worker-id="w${n - 1}"]`).waitFor({ state: "attached" });
  const openMs = Date.now() - t0;
  const target = Math.floor(n / 2);
  const rows: [string, number[]][] = [];
  for (const field of ["worker-name", "worker-baseurl", "worker-key"]) {
    const ms: number[] = [];
    for (let i = 0; i < KEYSTROKES; i++) ms.push(await keystroke(page, field, target));
    rows.push([field, ms]);
  }
  console.log(
    `  ${String(n).padStart(5)} workers: Settings shows its first cards in ${firstMs} ms, all ${n} in ${openMs} ms`,
  );
  for (const [field, ms] of rows)
    console.log(`         keystroke in ${field.padEnd(15)} ${summary(ms)}`);
  await context.close();
}

/** Keystroke latency and opening time of the pool editor at the cap and at 1,000 workers. */
export async function benchPoolEditor(dist: string): Promise<void> {
  const executablePath = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  let app: StaticServer | undefined;
  let browser: Browser | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    app = await serveStatic(dist);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    console.log(
      `\nPool editor: ${KEYSTROKES} keystrokes per field into the middle worker's card ` +
        `(key press to the frame after it; target < 100 ms at 1,000 workers; imports cap pools at ${MAX_POOL_WORKERS})`,
    );
    console.log(
      `  machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}; ` +
        "two frames of waiting (about 17-33 ms) are part of every figure",
    );
    const b = browser;
    const a = app;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the pool editor benchmark ran past ${DEADLINE_MS / 1000} s`)),
        DEADLINE_MS,
      );
    });
    await Promise.race([
      (async () => {
        for (const n of SIZES) await measure(b, a, n);
      })(),
      deadline,
    ]);
  } catch (e: unknown) {
    console.log(`\nPool editor benchmark failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(timer);
    await browser?.close();
    await app?.close();
  }
}
