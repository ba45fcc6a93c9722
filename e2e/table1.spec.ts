import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { openEvaluate } from "./support/studio.ts";
import { WORKERS, messagesText } from "./support/scenario.ts";

// Table 1 in the studio: two benchmark presets (GSM8K and MMLU) read from "the Hub" (rows in the
// Hub's shape, answered by this spec, so nothing leaves the machine), each evaluated with the same
// two workers alone; then the Table 1 panel shows strategies down, benchmarks across, each cell the
// accuracy with its interval and the cost per question, and exports it as CSV and Markdown.

let server: TestServer;
withTestServer((s) => (server = s));

const [RIGHT, WRONG] = WORKERS;
const STRATEGIES = [`single:${RIGHT.name}`, `single:${WRONG.name}`];
const REVISION = "0123456789abcdef0123456789abcdef01234567";

/** Each dataset's rows in the rows API's shape; the question carries a tag the workers read. */
const ROWS: Record<string, { row: Record<string, unknown>; right: string; wrong: string }[]> = {
  "openai/gsm8k": [
    {
      row: {
        question: "[g1] Ann has 3 apples and buys 4 more. How many?",
        answer: "3+4=7\n#### 7",
      },
      right: "Answer: 7",
      wrong: "Answer: 12",
    },
    {
      row: { question: "[g2] 6 boxes of 5 pens: how many pens?", answer: "6*5=30\n#### 30" },
      right: "Answer: 30",
      wrong: "Answer: 11",
    },
  ],
  "cais/mmlu": [
    {
      row: {
        question: "[m1] Which planet is the largest?",
        subject: "astronomy",
        choices: ["Mars", "Jupiter", "Venus", "Mercury"],
        answer: 1,
      },
      right: "Jupiter",
      wrong: "Mars",
    },
    {
      row: {
        question: "[m2] What is 2 + 2?",
        subject: "arithmetic",
        choices: ["3", "5", "4", "22"],
        answer: 2,
      },
      right: "4",
      wrong: "22",
    },
  ],
};

/** Answers the Hub's dataset API (the revision) and its rows API for the datasets above. */
async function serveHub(page: Page) {
  await page.route("https://huggingface.co/api/datasets/**", (route) =>
    route.fulfill({ json: { sha: REVISION } }),
  );
  await page.route("https://datasets-server.huggingface.co/rows?**", (route) => {
    const url = new URL(route.request().url());
    const rows = ROWS[url.searchParams.get("dataset") ?? ""] ?? [];
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const page = rows.slice(offset).map((r, i) => ({ row_idx: offset + i, row: r.row }));
    return route.fulfill({ json: { rows: page, num_rows_total: rows.length } });
  });
}

function reply(body: Parameters<typeof messagesText>[0], which: "right" | "wrong") {
  const text = messagesText(body);
  const all = Object.values(ROWS).flat();
  const hit = all.find((r) => text.includes(String(r.row.question).slice(0, 4)));
  if (!hit) return { content: "Answer: ?", latencyMs: 0 };
  // MMLU's options are shuffled with the evaluation's seed: answer the letter the prompt gives the option.
  if (!hit[which].startsWith("Answer:")) {
    const letter = new RegExp(`([A-D])[).:]\\s*${hit[which]}\\s*$`, "m").exec(text)?.[1] ?? "?";
    return { content: `Answer: ${letter}`, latencyMs: 0 };
  }
  return { content: hit[which], latencyMs: 0 };
}

test("Table 1: two preset evaluations, strategies down and benchmarks across, exported as CSV and Markdown", async ({
  page,
}) => {
  test.setTimeout(120_000);
  server.setDefault(RIGHT.model, (body) => reply(body, "right"));
  server.setDefault(WRONG.model, (body) => reply(body, "wrong"));
  await serveHub(page);
  const { evaluate } = await openEvaluate(page, server);

  for (const [preset, name] of [
    ["gsm8k", "openai/gsm8k"],
    ["mmlu", "cais/mmlu"],
  ] as const) {
    await page.getByText("From the Hugging Face Hub").click();
    await evaluate.byTestId(`preset-${preset}`).click();
    await expect(evaluate.byTestId("eval-source")).toContainText(name);
    await expect(evaluate.byTestId("eval-count")).toHaveText("2 question(s)");
    await evaluate.choose(...STRATEGIES);
    await evaluate.start();
    await expect(evaluate.byTestId("eval-done")).toHaveText("4/4", { timeout: 45_000 });
    await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished");
  }

  // The latest evaluation of each benchmark is in the table by default.
  const panel = evaluate.byTestId("table1");
  await panel.scrollIntoViewIfNeeded();
  const table = evaluate.byTestId("table1-table");
  await expect(table.locator("thead th")).toHaveText(["Strategy", "GSM8K", "MMLU"]);
  await expect(table.locator("tbody th")).toHaveText(STRATEGIES);
  const rows = table.locator("tbody tr");
  // Accuracy in %, its interval, then the cost per question.
  for (const td of await rows.nth(0).locator("td").all())
    await expect(td).toHaveText(/^100\.0 \[100\.0, 100\.0\]\s*\$\d+\.\d{4}\/q$/);
  for (const td of await rows.nth(1).locator("td").all())
    await expect(td).toHaveText(/^0\.0 \[0\.0, 0\.0\]\s*\$\d+\.\d{4}\/q$/);

  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.screenshot({ path: test.info().outputPath("table1-1280.png") });
  await page.setViewportSize({ width: 1024, height: 800 });
  await panel.screenshot({ path: test.info().outputPath("table1-1024.png") });

  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    panel.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe("table1.csv");
  const csvText = await readFile(await csv.path(), "utf8");
  const csvLines = csvText.trim().split("\n");
  expect(csvLines[0]).toBe(
    "strategy,benchmark,questions,accuracy,accuracyLo,accuracyHi,costPerQuestion",
  );
  expect(csvLines.slice(1).map((l) => l.split(",").slice(0, 6).join(","))).toEqual([
    `${STRATEGIES[0]},GSM8K,2,1,1,1`,
    `${STRATEGIES[0]},MMLU,2,1,1,1`,
    `${STRATEGIES[1]},GSM8K,2,0,0,0`,
    `${STRATEGIES[1]},MMLU,2,0,0,0`,
  ]);
  for (const l of csvLines.slice(1)) expect(Number(l.split(",")[6])).toBeGreaterThan(0);

  const [md] = await Promise.all([
    page.waitForEvent("download"),
    panel.getByRole("button", { name: "Export Markdown" }).click(),
  ]);
  expect(md.suggestedFilename()).toBe("table1.md");
  const mdLines = (await readFile(await md.path(), "utf8")).split("\n");
  expect(mdLines[0]).toBe("| Strategy | GSM8K | MMLU |");
  expect(mdLines[2]).toMatch(
    new RegExp(
      `^\\| ${STRATEGIES[0]} \\| 100\\.0 \\[100\\.0, 100\\.0\\] · \\$[\\d.]+/q \\| 100\\.0 `,
    ),
  );
  expect(mdLines[3]).toMatch(new RegExp(`^\\| ${STRATEGIES[1]} \\| 0\\.0 \\[0\\.0, 0\\.0\\] · `));
});
