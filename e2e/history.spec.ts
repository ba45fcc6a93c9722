import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { SETTINGS_KEY } from "../src/state/storage/persist.ts";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  PLAN_USAGE,
  QUESTION,
  WORKERS,
  callsTo,
  scriptNumberedAnswers,
  scriptPlan,
  streamThenHold,
} from "./support/scenario.ts";

let server: TestServer;
let studio: HistoryPage;

withStudio((s) => ({ server, studio } = s), {
  as: HistoryPage,
  script: (s) => {
    scriptPlan(s, ATTEMPTS_THEN_JUDGE, { usage: PLAN_USAGE });
    scriptNumberedAnswers(s, (n) => ({ prompt_tokens: 100, completion_tokens: 10 * n }));
  },
  ask: QUESTION,
  plan: 3,
});

const [SOLVER, CHECKER, JUDGE] = WORKERS.map((w) => w.model) as [string, string, string];
const count = (model: string) => callsTo(server, model).length;
/** A stored run from another studio (with a nested workflow), as a file to import. */
const nestedRunFile = () =>
  readFileSync(new URL("../src/engine/run/fixtures/run-v4-nested.json", import.meta.url), "utf8");

test("a reload mid-run brings back the question, graph and finished outputs; Resume runs only the rest", async ({
  page,
}) => {
  const partial = "The checker is still factoring 391 by hand, one prime at a time";
  // The checker streams its partial answer, then holds until the reload cuts it off.
  streamThenHold(server, CHECKER, [partial, " and will not finish before the reload."], "checker");
  await studio.run();
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(studio.output(1)).toContainText("The checker is still");
  // The stored record has caught up with the stream.
  await studio.waitStored("The checker is still");
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.type());
    void d.accept();
  });
  const before = { solver: count(SOLVER), checker: count(CHECKER), judge: count(JUDGE) };
  expect(before).toEqual({ solver: 1, checker: 1, judge: 0 });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  expect(dialogs).toEqual(["beforeunload"]);

  await expect(studio.byTestId("question")).toHaveValue(QUESTION);
  await expect(studio.nodes()).toHaveCount(3);
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(studio.output(0)).toContainText("Solver GPT answer #1.");
  await expect(studio.status(1)).toHaveAttribute("data-status", "interrupted");
  await expect(studio.status(1)).toHaveText("interrupted");
  await expect(studio.output(1)).toContainText("The checker is still");
  await expect(studio.status(2)).toHaveAttribute("data-status", "interrupted");

  server.setDefault(CHECKER, "Checker Claude, resumed: 391 = 17 × 23.");
  await studio.byTestId("resume").click();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer");
  await studio.waitIdle();
  expect(count(SOLVER) - before.solver).toBe(0);
  expect(count(CHECKER) - before.checker).toBe(1);
  expect(count(JUDGE) - before.judge).toBe(1);
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(2);
  await expect(studio.entry(0)).toHaveAttribute("data-kind", "resumed");
  await expect(studio.entry(1)).toHaveAttribute("data-status", "interrupted");
});

test("a reload after a run opens the same run, listed in history", async ({ page }) => {
  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #1.");
  await studio.waitIdle();
  const exported = await studio.exportRun();
  await page.reload();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #1.");
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  expect((await studio.exportRun()).raw.run).toEqual(exported.raw.run);
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(1);
  await expect(studio.entry(0)).toHaveAttribute("data-status", "done");
  await expect(studio.entry(0)).toContainText(QUESTION);
  await expect(studio.entry(0)).toHaveClass(/open/);
});

const settingsPool = (page: HistoryPage["page"]) =>
  page.evaluate(
    (key) =>
      (JSON.parse(localStorage.getItem(key) ?? "{}") as { pool?: { id: string }[] }).pool?.map(
        (w) => w.id,
      ),
    SETTINGS_KEY,
  );

test("an import during a run opens as its own run; the live run finishes into its own record", async ({
  page,
}) => {
  const file = nestedRunFile();
  const poolBefore = await settingsPool(page);
  // The judge's call is held until the import is done: the import happens during the run, always.
  const judge = server.gate("judge");
  server.setDefault(JUDGE, {
    content: "The judge takes its time: 391 is not prime.",
    gate: "judge",
  });
  await studio.run();
  await judge.reached();
  await expect(studio.status(2)).toHaveAttribute("data-status", "running");
  await studio.importFile({
    name: "nested.json",
    mimeType: "application/json",
    buffer: Buffer.from(file),
  });
  await expect(studio.byTestId("question")).toHaveValue(/longest increasing subsequence/);
  // The imported run re-exports byte for byte, while the live run goes on.
  expect((await studio.exportRun()).text).toBe(file);
  // The race happened: the live run's last call is still held, so it has not finished yet.
  expect(judge.held).toBe(1);
  expect(server.disconnects).toEqual([]);
  judge.release();
  await expect(studio.byTestId("run")).toBeVisible({ timeout: 15_000 });
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(2);
  await expect(studio.entry(0)).toHaveAttribute("data-status", "done");
  const live = studio.entries().filter({ hasText: QUESTION });
  await expect(live).toHaveAttribute("data-status", "done");
  expect((await studio.exportRun()).text).toBe(file);
  expect(await settingsPool(page)).toEqual(poolBefore);
  await expect(studio.byTestId("use-run-pool")).toBeVisible();

  await live.getByTestId("history-open").click();
  await expect(studio.byTestId("question")).toHaveValue(QUESTION);
  await expect(studio.byTestId("final-answer")).toContainText("The judge takes its time");
  const run = (await studio.exportRun()).json.run;
  expect(run.question).toBe(QUESTION);
  expect(run.rounds[0]?.steps.map((s) => s.status)).toEqual(["done", "done", "done"]);
});

interface UsageLike {
  promptTokens: number;
  completionTokens: number;
}
const tokens = (u: UsageLike | null | undefined) => (u ? u.promptTokens + u.completionTokens : 0);

test("re-run twice: three runs in history, each one's totals the sum of its own recorded calls", async () => {
  for (let i = 1; i <= 3; i++) {
    await studio.run();
    await expect(studio.byTestId("final-answer")).toContainText(`Judge Qwen answer #${i}.`);
    await studio.waitIdle();
  }
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(3);
  for (const i of [0, 1, 2]) {
    await studio.openEntry(i);
    await expect(studio.entry(i)).toHaveClass(/open/);
    const run = (await studio.exportRun()).raw.run as {
      kind: string;
      kept: { round: number; step: number | null }[];
      totals: UsageLike & { calls: number };
      rounds: {
        plan: { usage: UsageLike | null } | null;
        steps: { index: number; usage: UsageLike | null }[];
      }[];
    };
    const kept = new Set(run.kept.map((k) => `${k.round}:${k.step ?? "p"}`));
    let sum = 0;
    let calls = 0;
    run.rounds.forEach((r, ri) => {
      if (r.plan && !kept.has(`${ri}:p`)) {
        sum += tokens(r.plan.usage);
        calls++;
      }
      for (const s of r.steps) {
        if (kept.has(`${ri}:${s.index}`)) continue;
        sum += tokens(s.usage);
        calls++;
      }
    });
    expect(run.totals.promptTokens + run.totals.completionTokens).toBe(sum);
    expect(run.totals.calls).toBe(calls);
    expect(run.kind).toBe(i === 2 ? "planned" : "rerun");
    expect(calls).toBe(i === 2 ? 4 : 3);
    await expect(studio.byTestId("totals")).toContainText(`${sum.toLocaleString("en-US")} tokens`);
  }
});

test("compare shows an edited subtask as a word diff and two different outputs side by side", async () => {
  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #1.");
  await studio.waitIdle();
  await studio.selectNode(0);
  await studio
    .byTestId("subtask-input")
    .fill(ATTEMPTS_THEN_JUDGE.subtasks[0]!.replace("trial division", "careful trial division"));
  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #2.");
  await studio.waitIdle();
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(2);
  await expect(studio.entry(0)).toHaveAttribute("data-kind", "edited");
  await studio.entry(0).getByTestId("history-select").check();
  await studio.entry(1).getByTestId("history-select").check();
  await studio.byTestId("history-compare").click();
  const compare = studio.byTestId("compare");
  await expect(compare).toBeVisible();
  const first = compare.getByTestId("compare-step").first();
  // The older run on the left, the edit on the right: the added word is marked there.
  const subtask = (side: string) =>
    first.getByTestId(`compare-${side}`).getByTestId("compare-subtask");
  await expect(subtask("right").getByTestId("diff-added")).toHaveText(/careful/);
  await expect(subtask("left").getByTestId("diff-removed")).toHaveCount(0);
  await expect(
    first.getByTestId("compare-right").getByTestId("compare-output").getByTestId("diff-added"),
  ).toContainText("2");
  await expect(first.getByTestId("compare-left").getByTestId("compare-output")).toContainText(
    "Solver GPT answer #1.",
  );
  await expect(first.getByTestId("compare-right").getByTestId("compare-output")).toContainText(
    "Solver GPT answer #2.",
  );
  await expect(compare.getByTestId("compare-answer-left")).toContainText("Judge Qwen answer #1.");
  await expect(compare.getByTestId("compare-answer-right")).toContainText("Judge Qwen answer #2.");
  await expect(compare.getByTestId("compare-totals")).toContainText("Difference");
});

test("a full disk shows a clear message and loses no stored run", async ({ page }) => {
  await studio.run();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer #1.");
  await studio.waitIdle();
  await expect.poll(async () => (await studio.storedTexts()).length).toBe(1);
  const stored = await studio.storedTexts();
  await page.evaluate(() => {
    const w = window as unknown as { __put?: IDBObjectStore["put"] };
    w.__put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
  });
  await studio.run();
  await expect(studio.byTestId("notice")).toContainText("no room left to store runs");
  await studio.waitIdle();
  await page.evaluate(() => {
    const w = window as unknown as { __put?: IDBObjectStore["put"] };
    if (w.__put) IDBObjectStore.prototype.put = w.__put;
  });
  expect(await studio.storedTexts()).toEqual(stored);
  await page.reload();
  await studio.openHistory();
  await expect(studio.entries()).toHaveCount(1);
  await expect(studio.entry(0)).toHaveAttribute("data-status", "done");
});

test("a reload while an imported run is open still stores the live run as interrupted, with Resume", async ({
  page,
}) => {
  const file = nestedRunFile();
  // The checker streams a partial answer, then holds until the reload cuts it off.
  streamThenHold(
    server,
    CHECKER,
    ["The checker is still factoring 391,", " one prime at a time."],
    "checker",
  );
  await studio.run();
  await expect(studio.output(1)).toContainText("The checker is still");
  await studio.waitStored("The checker is still");
  await studio.importFile({
    name: "nested.json",
    mimeType: "application/json",
    buffer: Buffer.from(file),
  });
  await expect(studio.byTestId("question")).toHaveValue(/longest increasing subsequence/);
  page.on("dialog", (d) => void d.accept());
  await page.reload();
  await expect(page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
  // The imported run is still the open one; the live run is not left "running" for ever.
  await expect(studio.byTestId("question")).toHaveValue(/longest increasing subsequence/);
  await studio.openHistory();
  const live = studio.entries().filter({ hasText: QUESTION });
  await expect(live).toHaveAttribute("data-status", "interrupted");
  await live.getByTestId("history-open").click();
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(studio.status(1)).toHaveAttribute("data-status", "interrupted");
  await expect(studio.output(1)).toContainText("The checker is still");
  server.setDefault(CHECKER, "Checker Claude, resumed: 391 = 17 × 23.");
  await studio.byTestId("resume").click();
  await expect(studio.byTestId("final-answer")).toContainText("Judge Qwen answer");
  expect(count(SOLVER)).toBe(1);
});
