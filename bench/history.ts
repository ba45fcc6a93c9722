import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import type { Browser, Page } from "@playwright/test";
import { chromium } from "@playwright/test";
import { exportRun } from "../src/engine/run/export.ts";
import { emptyRecord, stepRecord } from "../src/engine/run/record.ts";
import type { RunRecord } from "../src/engine/schema/record.ts";
import { WorkerSchema } from "../src/engine/schema/worker.ts";
import { metaOf } from "../src/engine/store/meta.ts";
import { serveStatic } from "./app.ts";

const RUNS = 100_000;
const STEPS = 5;
const OUTPUT_BYTES = 4096;
const REPEATS = 7;
/** Runs whose record is the full template (the ones opened); the rest carry a small record. */
const FULL = 20;
/** Nine stored runs in ten are evaluation items, spread over this many evaluations. */
const EVALUATIONS = 100;
const isOwn = (i: number) => i % 10 === 0 || i >= RUNS - FULL;
const OWN = Array.from({ length: RUNS }, (_, i) => i).filter(isOwn).length;

/** A finished run of STEPS steps, each with a 4 KB output: the template of every stored run. */
function template(): RunRecord {
  const pool = Array.from({ length: STEPS }, (_, i) =>
    WorkerSchema.parse({ id: `w${i}`, name: `Worker ${i}`, model: `m${i}` }),
  );
  const base = { ...emptyRecord("RUN_ID"), pool };
  const output = "lorem ipsum dolor sit amet "
    .repeat(Math.ceil(OUTPUT_BYTES / 27))
    .slice(0, OUTPUT_BYTES);
  const steps = Array.from({ length: STEPS }, (_, i) => ({
    ...stepRecord(
      base,
      { worker: `w${i}`, subtask: `Attempt ${i + 1} of the question`, access: [] },
      i,
    ),
    status: "done" as const,
    output: `${i}: ${output}`,
    startedAt: 1_700_000_000_000,
    finishedAt: 1_700_000_001_000,
    usage: { promptTokens: 120, completionTokens: 900, estimated: false },
    cost: 0.001,
  }));
  return {
    ...base,
    kind: "planned",
    question: "Bench question RUN_ID: which of these five attempts is right?",
    status: "done",
    createdAt: 1_700_000_000_000,
    startedAt: 1_700_000_000_000,
    finishedAt: 1_700_000_002_000,
    planningMs: 800,
    executionMs: 1200,
    answer: steps[STEPS - 1]!.output,
    rounds: [
      {
        index: 0,
        plan: null,
        lists: null,
        steps,
        answer: steps[STEPS - 1]!.output,
        accepted: false,
      },
    ],
    totals: { promptTokens: 600, completionTokens: 4500, cost: 0.005, estimated: false, calls: 5 },
  };
}

/**
 * Writes RUNS runs straight into the app's IndexedDB (after the app made it): one in ten the
 * user's own, the others evaluation items; the newest FULL with the whole template's record.
 */
async function seed(page: Page): Promise<void> {
  const record = template();
  const text = exportRun(record, "2026-01-01T00:00:00.000Z");
  const small = exportRun(
    {
      ...record,
      answer: "short",
      rounds: [
        {
          ...record.rounds[0]!,
          answer: "short",
          steps: [{ ...record.rounds[0]!.steps[0]!, output: "short" }],
        },
      ],
    },
    "2026-01-01T00:00:00.000Z",
  );
  const meta = metaOf(record, text.length, {}, 1_700_000_000_000);
  await page.evaluate(
    ({ text, small, meta, runs, full, evaluations }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("conductor-studio");
        open.onerror = () => reject(new Error("no run store"));
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(["runs", "records"], "readwrite");
          for (let i = 0; i < runs; i++) {
            const id = `run-${String(i).padStart(6, "0")}`;
            const own = i % 10 === 0 || i >= runs - full;
            const body = i >= runs - full ? text : small;
            tx.objectStore("records").put({
              key: id,
              version: 1,
              run: body.replaceAll("RUN_ID", id),
            });
            const e = i % evaluations;
            const evaluation = own
              ? undefined
              : {
                  id: `eval-${e}`,
                  name: `Bench evaluation ${e}`,
                  strategy: ["conductor", "moa", "single:Worker 0"][i % 3]!,
                  item: `q-${Math.floor(i / evaluations)}`,
                  repeat: 0,
                  verdict: i % 7 ? "correct" : "wrong",
                };
            const question = meta.question.replace("RUN_ID", id);
            tx.objectStore("runs").put({
              ...meta,
              key: id,
              runId: id,
              question,
              search:
                `\n${evaluation ? `${evaluation.name} ${evaluation.strategy} ${evaluation.item}\n` : ""}${question}`.toLowerCase(),
              createdAt: meta.createdAt + i * 1000,
              bytes: body.length,
              kind: own ? "planned" : "evaluation",
              ...(evaluation && { evaluation }),
            });
          }
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(new Error("seeding failed"));
        };
      }),
    { text, small, meta, runs: RUNS, full: FULL, evaluations: EVALUATIONS },
  );
}

/** Types a search and counts the time until a frame shows the run `key`'s row. */
function timeSearch(page: Page, text: string, key: string): Promise<number> {
  return page.evaluate(
    ({ text, key }) =>
      new Promise<number>((resolve, reject) => {
        const input = document.querySelector<HTMLInputElement>("[data-testid=history-search]");
        if (!input) return reject(new Error("no search box"));
        const t0 = performance.now();
        // React listens for the native input event; set the value as a user's typing would.
        const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
        proto?.set?.call(input, text);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        const until = t0 + 10_000;
        const check = () => {
          const rows = document.querySelectorAll("[data-testid=history-entry]");
          if (rows.length === 1 && rows[0]!.getAttribute("data-key") === key)
            return resolve(performance.now() - t0);
          if (performance.now() > until)
            return reject(new Error("the search never showed its row"));
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { text, key },
  );
}

/**
 * Clicks, then counts the time until a frame shows the history's rows (`id` null) or the run
 * `id` open: its question in the box and its five steps on the canvas.
 */
function timeUntil(page: Page, click: string, id: string | null): Promise<number> {
  return page.evaluate(
    ({ click, id, steps }) =>
      new Promise<number>((resolve, reject) => {
        const target = document.querySelector<HTMLElement>(click);
        if (!target) return reject(new Error(`nothing to click at ${click}`));
        const done = () => {
          if (id === null) return document.querySelector("[data-testid=history-entry]") !== null;
          const q = document.querySelector<HTMLTextAreaElement>("[data-testid=question]");
          return (
            (q?.value.includes(id) ?? false) &&
            document.querySelectorAll("[data-testid=step-node]").length === steps
          );
        };
        const t0 = performance.now();
        target.click();
        const until = t0 + 10_000;
        const check = () => {
          if (done()) return resolve(performance.now() - t0);
          if (performance.now() > until)
            return reject(new Error("what was awaited never appeared"));
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { click, id, steps: STEPS },
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** History with 100,000 stored runs: time to the first drawn rows, to a search, to open a run. */
export async function benchHistory(dist: string): Promise<void> {
  const executablePath = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  const app = await serveStatic(dist);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx names compiled functions with a `__name` helper that the page does not have.
    await page.addInitScript({ content: "window.__name = (f) => f;" });
    await page.goto(app.url);
    await page.getByRole("heading", { name: "Conductor Studio" }).waitFor();
    // Opening History makes the app create its database; the runs are then written into it.
    await page.getByTestId("open-history").click();
    await page.getByTestId("history-panel").waitFor();
    await page.getByTestId("history-storage").getByText("runs,").waitFor();
    await seed(page);
    const firstRows: number[] = [];
    const opens: number[] = [];
    const searches: number[] = [];
    let rendered = 0;
    for (let i = 0; i < REPEATS; i++) {
      await page.reload();
      await page.getByRole("heading", { name: "Conductor Studio" }).waitFor();
      firstRows.push(await timeUntil(page, "[data-testid=open-history]", null));
      rendered = await page.locator("[data-testid=history-entry]").count();
      const id = `run-${String(RUNS - 1 - i).padStart(6, "0")}`;
      const row = `[data-testid=history-entry][data-key="${id}"] [data-testid=history-open]`;
      await page.locator(row).waitFor();
      opens.push(await timeUntil(page, row, id));
      // A search for one own run among them all (found once every row is read).
      await page.getByTestId("history-count").getByText(`${OWN} runs`).waitFor();
      const own = 10 * (1000 + 997 * i);
      const key = `run-${String(own).padStart(6, "0")}`;
      searches.push(await timeSearch(page, `question ${key}:`, key));
      await page.getByTestId("history-search").fill("");
    }
    console.log(
      `\nHistory: ${RUNS.toLocaleString("en")} stored runs, 9 in 10 of them evaluation items of ${EVALUATIONS} evaluations; the newest ${FULL} of ${STEPS} steps with ${OUTPUT_BYTES / 1024} KB outputs (headless Chromium)`,
    );
    console.log(
      `  first rows drawn after opening History: median ${median(firstRows).toFixed(0)} ms (runs: ${firstRows.map((t) => t.toFixed(0)).join(", ")}); target < 200 ms`,
    );
    console.log(`  machine load average ${loadavg()[0]!.toFixed(1)} at the end`);
    console.log(`  rows in the DOM (virtualised): ${rendered} of ${RUNS}`);
    await page.getByTestId("history-storage").getByText("runs,").waitFor();
    const storage = await page.getByTestId("history-storage").textContent();
    console.log(`  storage line: ${storage}`);
    console.log(
      `  a search for one run among them all: median ${median(searches).toFixed(0)} ms (runs: ${searches.map((t) => t.toFixed(0)).join(", ")}); target < 500 ms`,
    );
    console.log(
      `  a run opens (steps and outputs drawn): median ${median(opens).toFixed(0)} ms (runs: ${opens.map((t) => t.toFixed(0)).join(", ")}); target < 100 ms`,
    );
  } catch (e: unknown) {
    console.log(`\nHistory benchmark failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  } finally {
    await browser?.close();
    await app.close();
  }
}
