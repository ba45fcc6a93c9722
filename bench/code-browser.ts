import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Browser, Page } from "@playwright/test";
import { chromium } from "@playwright/test";
import type { StaticServer } from "./app.ts";
import { serveStatic } from "./app.ts";

/**
 * The studio's code sandbox in headless Chromium (`/?sandbox-test`): what one answer costs, by
 * phase, and answers per second, with 10 trivial tests per answer as in bench/code.ts.
 */
const ANSWER = "```python\na, b = map(int, input().split())\nprint(a + b)\n```";
const TESTS = JSON.stringify({
  style: "stdio",
  cases: Array.from({ length: 10 }, (_, i) => ({ input: `${i} ${i}\n`, output: `${2 * i}\n` })),
});
const SEQUENTIAL = 8;
const TOGETHER = 12;
const WAIT_MS = 240_000;

const machine = () =>
  `${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** A sandboxed srcdoc frame's creation to its load event, and compiling Pyodide's wasm, in the page. */
async function pagePhases(page: Page): Promise<{ frameMs: number; compileMs: number }> {
  return page.evaluate(async () => {
    let t0 = performance.now();
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts");
    frame.style.display = "none";
    frame.srcdoc = "<!doctype html><html><body></body></html>";
    await new Promise<void>((ok) => {
      frame.onload = () => ok();
      document.body.appendChild(frame);
    });
    const frameMs = performance.now() - t0;
    frame.remove();
    const bytes = await (await fetch("/pyodide/pyodide.asm.wasm")).arrayBuffer();
    t0 = performance.now();
    await WebAssembly.compile(bytes);
    return { frameMs, compileMs: performance.now() - t0 };
  });
}

interface Scored {
  ms: number;
  ranMs: number;
  correct: boolean | null;
}

/**
 * Scores `n` answers, one at a time or all together; each with its time and its tests' run time.
 * Source text, not a function: tsx's helpers (`__name`) do not exist in the page.
 */
async function score(page: Page, n: number, together: boolean): Promise<Scored[]> {
  return page.evaluate(`(async () => {
    const hook = window.__codeSandbox;
    const one = async () => {
      const t0 = performance.now();
      const r = await hook.score(${JSON.stringify(ANSWER)}, ${JSON.stringify(TESTS)});
      return { ms: performance.now() - t0, ranMs: (r.details && r.details.timeMs) || 0, correct: r.correct };
    };
    if (${together}) return Promise.all(Array.from({ length: ${n} }, one));
    const out = [];
    for (let i = 0; i < ${n}; i++) out.push(await one());
    return out;
  })()`);
}

/** The last worker's own start time (0 where the hook has no `status`: an older build). */
const lastLoadMs = (page: Page): Promise<number> =>
  page.evaluate(`window.__codeSandbox.status?.().lastLoadMs ?? 0`);

/** Prints the browser code sandbox's per-answer figures. */
export async function benchCodeBrowser(dist: string): Promise<void> {
  console.log("\nCode sandbox in the studio (headless Chromium, /?sandbox-test, 10 trivial tests)");
  console.log(`  machine before: ${machine()}`);
  const executablePath = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  let server: StaticServer | null = null;
  let browser: Browser | null = null;
  try {
    server = await serveStatic(dist);
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(`${server.url}/?sandbox-test`);
    await page.waitForFunction(() => window.__codeSandbox !== undefined);
    const phases = await pagePhases(page);
    console.log(
      `  a sandboxed frame created and loaded: ${phases.frameMs.toFixed(0)} ms; ` +
        `Pyodide's wasm compiled (in the page, once): ${phases.compileMs.toFixed(0)} ms`,
    );
    let t0 = performance.now();
    await page.evaluate(() => window.__codeSandbox?.warm());
    const first = await lastLoadMs(page);
    console.log(
      `  cold start (download, first boot, snapshot): ${(performance.now() - t0).toFixed(0)} ms to a ready interpreter (its worker ${first.toFixed(0)} ms)`,
    );
    await score(page, 2, false);
    const seq = await score(page, SEQUENTIAL, false);
    if (seq.some((s) => !s.correct)) throw new Error("a bench answer scored wrong");
    const start = await lastLoadMs(page);
    console.log(
      `  an answer's worker, from its start message to ready (wasm, boot from the snapshot): ${start.toFixed(0)} ms`,
    );
    console.log(
      `  its 10 tests' run time: median ${median(seq.map((s) => s.ranMs)).toFixed(1)} ms`,
    );
    console.log(
      `  one answer at a time: median ${median(seq.map((s) => s.ms)).toFixed(0)} ms per answer`,
    );
    t0 = performance.now();
    const all = await score(page, TOGETHER, true);
    if (all.some((s) => !s.correct)) throw new Error("a bench answer scored wrong");
    const perSecond = TOGETHER / ((performance.now() - t0) / 1000);
    console.log(
      `  ${TOGETHER} answers at once: ${perSecond.toFixed(2)} answers/s (${(1000 / perSecond).toFixed(0)} ms per answer)`,
    );
  } catch (e: unknown) {
    console.log(`  (skipped: ${e instanceof Error ? e.message.split("\n")[0] : String(e)})`);
  } finally {
    await browser?.close();
    await server?.close();
  }
  console.log(`  machine after: ${machine()}`);
}
