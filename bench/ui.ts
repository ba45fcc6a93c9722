import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type { Browser, Page } from "@playwright/test";
import { chromium } from "@playwright/test";
import type { TestServer } from "../e2e/server/server.ts";
import { startTestServer } from "../e2e/server/server.ts";
import type { Worker } from "../src/engine/schema/worker.ts";
import { SETTINGS_KEY } from "../src/state/storage/persist.ts";
import type { StaticServer } from "./app.ts";
import { serveStatic } from "./app.ts";

const STEPS = 5;
const CHUNKS = 300;
const CHUNK_DELAY_MS = 10;
/** The whole benchmark stops by then, whatever happens. */
const DEADLINE_MS = 150_000;
const WAIT_MS = 30_000;
/** Runs per scenario: a shared two-core machine makes single runs noisy. */
const REPEATS = 3;
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** What the page records (see `probeScript`), installed before any app code runs. */
interface Probe {
  longTasks: { start: number; duration: number }[];
  frames: number;
  recording: boolean;
}
type ProbeWindow = Window & { __probe: Probe };

/**
 * The probe as source text: a function passed to addInitScript would carry the helpers tsx adds
 * to compiled functions (`__name`), which do not exist in the page.
 */
function probeScript(settings: string): string {
  return `
    localStorage.setItem(${JSON.stringify(SETTINGS_KEY)}, ${JSON.stringify(settings)});
    const probe = { longTasks: [], frames: 0, recording: false };
    window.__probe = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
    const tick = () => {
      if (probe.recording) probe.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  `;
}

/** A plan of five independent steps, one per worker. */
const PLAN = [
  "Five independent attempts; the last one answers.",
  `model_id = [${Array.from({ length: STEPS }, (_, i) => i).join(", ")}]`,
  `subtasks = [${Array.from({ length: STEPS }, (_, i) => `"Attempt ${i + 1}"`).join(", ")}]`,
  `access_list = [${Array.from({ length: STEPS }, () => "[]").join(", ")}]`,
].join("\n");

/** A Markdown-ish answer in CHUNKS pieces: words, a heading now and then, some bold. */
function answerChunks(worker: number): string[] {
  return Array.from({ length: CHUNKS }, (_, i) => {
    if (i % 60 === 0) return `\n\n## Part ${i / 60 + 1} of worker ${worker}\n\n`;
    return i % 7 === 0 ? `**token${i}** ` : `token${i} `;
  });
}

function pool(server: TestServer): Worker[] {
  return Array.from({ length: STEPS }, (_, i) => ({
    id: `w${i}`,
    name: `Worker ${i}`,
    kind: "openai",
    baseURL: server.baseURL,
    model: `m${i}`,
    temperature: 0.2,
    maxTokens: 1024,
    prefill: false,
  }));
}

interface Figures {
  wallMs: number;
  /** Long tasks overlapping the run: offset from its start and duration, in ms. */
  longTasks: { at: number; duration: number }[];
  frames: number;
}

/** Clicks Run and records long tasks and frames until the answer is shown and Run is back. */
async function measureRun(page: Page): Promise<Figures> {
  await page.locator("[data-testid=run]:enabled").waitFor();
  const start = await page.evaluate(() => {
    const p = (window as unknown as ProbeWindow).__probe;
    p.frames = 0;
    p.recording = true;
    return performance.now();
  });
  await page.getByTestId("run").click();
  // The previous run's answer stays on screen, so the run's end is Cancel going away again.
  await page.getByTestId("cancel").waitFor({ state: "attached" });
  await page.getByTestId("cancel").waitFor({ state: "detached" });
  await page.getByTestId("final-answer").waitFor();
  return page.evaluate((start) => {
    const p = (window as unknown as ProbeWindow).__probe;
    p.recording = false;
    const end = performance.now();
    const during = p.longTasks.filter((t) => t.start + t.duration >= start && t.start <= end);
    const longTasks = during.map((t) => ({ at: t.start - start, duration: t.duration }));
    return { wallMs: end - start, longTasks, frames: p.frames };
  }, start);
}

function row(name: string, f: Figures): string {
  const s = f.wallMs / 1000;
  const durations = f.longTasks.map((t) => t.duration);
  const longest = durations.length ? Math.max(...durations).toFixed(0) : "-";
  return [
    name.padEnd(30),
    s.toFixed(2).padStart(6),
    (CHUNKS / s).toFixed(0).padStart(14),
    String(f.longTasks.length).padStart(11),
    longest.padStart(11),
    (f.frames / s).toFixed(0).padStart(9),
  ].join(" ");
}

/** Where the worst long tasks fell, e.g. "96 ms at +0.02 s", to tell start or end from streaming. */
function worst(tasks: Figures["longTasks"]): string {
  const top = [...tasks].sort((a, b) => b.duration - a.duration).slice(0, 4);
  return top.map((t) => `${t.duration.toFixed(0)} ms at +${(t.at / 1000).toFixed(2)} s`).join(", ");
}

async function run(page: Page, server: TestServer, app: StaticServer): Promise<void> {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(app.url);
  await page.getByTestId("question").fill("Benchmark: five workers answer at once.");
  await page.getByTestId("plan").click();
  await page.waitForFunction(
    (n) => document.querySelectorAll("[data-testid=step-node]").length === n,
    STEPS,
  );
  const before = await page.evaluate(() =>
    (window as unknown as ProbeWindow).__probe.longTasks.map((t) => t.duration),
  );
  const scenarios: [string, Figures[]][] = [
    ["nothing selected", []],
    ["inspector open", []],
  ];
  for (let i = 0; i < REPEATS; i++) scenarios[0]![1].push(await measureRun(page));
  // Again with the last step open in the inspector, which renders its streamed Markdown too.
  await page
    .getByTestId("step-node")
    .nth(STEPS - 1)
    .click();
  await page.getByTestId("inspector").waitFor();
  for (let i = 0; i < REPEATS; i++) scenarios[1]![1].push(await measureRun(page));
  const calls = server.requests.filter(
    (r) => r.method === "POST" && r.path === "/v1/chat/completions",
  ).length;

  console.log(
    `\nUI: ${STEPS} steps streaming at once in headless Chromium ` +
      `(${CHUNKS} chunks each, one every ${CHUNK_DELAY_MS} ms: about ${1000 / CHUNK_DELAY_MS} chunks/s per step)`,
  );
  // Chromium, the test server and this script share the machine: busy cores make long tasks.
  console.log(
    `  machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at the end`,
  );
  console.log(
    `  before the runs (page load and plan): ${before.length} long tasks` +
      (before.length ? `, longest ${Math.max(...before).toFixed(0)} ms` : ""),
  );
  console.log(
    "  run                            wall s  chunks/s/step  long tasks  longest ms  frames/s",
  );
  for (const [name, runs] of scenarios)
    runs.forEach((f, i) => console.log(`  ${row(`${name} #${i + 1}`, f)}`));
  for (const [name, runs] of scenarios) {
    const counts = runs.map((f) => f.longTasks.length).sort((a, b) => a - b);
    const tasks = runs.flatMap((f) => f.longTasks);
    console.log(
      `  ${name}: median ${counts[Math.floor(counts.length / 2)]} long tasks per run` +
        (tasks.length ? `; worst: ${worst(tasks)}` : ""),
    );
  }
  console.log(`  target: 0 long tasks (> 50 ms) during a run; ${calls} model calls served`);
  // Persistence is on: every run above was written to IndexedDB as it streamed.
  const stored = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open("conductor-studio");
        open.onerror = () => resolve(-1);
        open.onsuccess = () => {
          const req = open.result.transaction("records").objectStore("records").count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => resolve(-1);
        };
      }),
  );
  console.log(`  persistence on: ${stored} runs stored in IndexedDB while streaming`);
  if (errors.length) console.log(`  page errors: ${errors.join(" | ")}`);
}

/** Five parallel streams in the built app: main-thread long tasks, frame rate and wall time. */
export async function benchUi(dist: string): Promise<void> {
  const executablePath = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  let server: TestServer | undefined;
  let app: StaticServer | undefined;
  let browser: Browser | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    server = await startTestServer();
    server.setDefault("conductor", PLAN);
    for (let i = 0; i < STEPS; i++)
      server.setDefault(`m${i}`, {
        chunks: answerChunks(i),
        chunkDelayMs: CHUNK_DELAY_MS,
        usage: { prompt_tokens: 120, completion_tokens: CHUNKS },
      });
    app = await serveStatic(dist);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const settings = JSON.stringify({
      pool: pool(server),
      conductor: { backend: "remote", baseURL: server.baseURL, model: "conductor" },
    });
    await context.addInitScript({ content: probeScript(settings) });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the UI benchmark ran past ${DEADLINE_MS / 1000} s`)),
        DEADLINE_MS,
      );
    });
    await Promise.race([run(page, server, app), deadline]);
  } catch (e: unknown) {
    console.log(`\nUI benchmark failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(timer);
    await browser?.close();
    await app?.close();
    await server?.close();
  }
}
