import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import { PoolPage } from "./pages/pool.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, WORKERS, callsTo, scriptPlan, streamThenHold } from "./support/scenario.ts";

// Only the checker's endpoint wants a key; the others are open, like a local server.
const KEY = "sk-checker-in-memory-0123456789";
const [SOLVER, CHECKER, JUDGE] = WORKERS;

let server: TestServer;
let studio: HistoryPage;
withStudio((s) => ({ server, studio } = s), {
  as: HistoryPage,
  server: { keys: { [CHECKER.model]: KEY } },
  script: (s) => {
    scriptPlan(s);
    s.setDefault(SOLVER.model, "391 = 17 × 23.");
    s.setDefault(JUDGE.model, "Not prime: 391 = 17 × 23.");
  },
});

/** Gives the checker its key in Settings (held in memory only, the default), then plans. */
async function keyThenPlan(pool: PoolPage) {
  await pool.openSettings();
  await pool.configure(1, { key: KEY });
  await pool.closeSettings();
  await studio.ask(QUESTION);
  await studio.plan(3);
}

test("Resume after a reload asks for the key the reload cleared, names the worker, and calls nothing until it is given", async ({
  page,
}) => {
  await keyThenPlan(new PoolPage(page));

  // The checker streams a partial answer, then holds until the reload cuts it off.
  streamThenHold(
    server,
    CHECKER.model,
    ["The checker is still factoring 391", " by hand, slowly"],
    "checker",
  );
  await studio.run();
  await expect(studio.output(1)).toContainText("The checker is still");
  await studio.waitStored("The checker is still");
  page.on("dialog", (d) => void d.accept());
  await page.reload();
  await expect(studio.status(1)).toHaveAttribute("data-status", "interrupted");

  server.setDefault(CHECKER.model, "Resumed: 391 = 17 × 23.");
  const before = callsTo(server, CHECKER.model).length + callsTo(server, JUDGE.model).length;
  await studio.byTestId("resume").click();
  const prompt = studio.byTestId("key-prompt");
  await expect(prompt).toBeVisible();
  await expect(studio.byTestId("key-prompt-names")).toContainText(CHECKER.name);
  await expect(studio.byTestId("key-prompt-names")).not.toContainText(SOLVER.name);
  await expect(studio.byTestId("key-prompt-go")).toBeDisabled();
  // Nothing was called, and Cancel calls nothing either.
  await studio.byTestId("key-prompt-cancel").click();
  await expect(prompt).toHaveCount(0);
  await expect(studio.status(1)).toHaveAttribute("data-status", "interrupted");
  expect(callsTo(server, CHECKER.model).length + callsTo(server, JUDGE.model).length).toBe(before);

  await studio.byTestId("resume").click();
  await studio.byTestId("key-prompt-input").fill(KEY);
  await studio.byTestId("key-prompt-go").click();
  await expect(studio.byTestId("final-answer")).toContainText("Not prime");
  await studio.waitIdle();
  const resumed = callsTo(server, CHECKER.model).slice(-1)[0]!;
  expect(resumed.headers.authorization).toBe(`Bearer ${KEY}`);
  await expect(studio.status(1)).toHaveAttribute("data-status", "done");
});

test("Re-run from a step after a reload asks for its worker's key first", async ({ page }) => {
  await keyThenPlan(new PoolPage(page));
  server.setDefault(CHECKER.model, "391 = 17 × 23, checked.");
  await studio.run();
  await studio.waitIdle();
  await page.reload();
  await expect(studio.status(1)).toHaveAttribute("data-status", "done");

  const before = callsTo(server, CHECKER.model).length;
  await studio.selectNode(1);
  await studio.byTestId("rerun-from").click();
  await expect(studio.byTestId("key-prompt")).toBeVisible();
  await expect(studio.byTestId("key-prompt-names")).toContainText(CHECKER.name);
  expect(callsTo(server, CHECKER.model).length).toBe(before);
  await studio.byTestId("key-prompt-input").fill(KEY);
  await studio.byTestId("key-prompt-go").click();
  await studio.waitIdle();
  expect(callsTo(server, CHECKER.model).length).toBe(before + 1);
  await expect(studio.status(1)).toHaveAttribute("data-status", "done");
});
