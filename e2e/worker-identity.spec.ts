import { expect, test } from "@playwright/test";
import { PoolPage } from "./pages/pool.ts";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { seriousViolations } from "./support/axe.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  QUESTION,
  WORKERS,
  callsTo,
  scriptPlanAndAnswers,
} from "./support/scenario.ts";

// Steps refer to their worker by id: editing the pool never rewires a workflow (issue 10).

let server: TestServer;
let studio: StudioPage;
let pool: PoolPage;

withStudio(
  (s) => {
    ({ server, studio } = s);
    pool = new PoolPage(studio.page);
  },
  { script: scriptPlanAndAnswers, ask: QUESTION, plan: 3 },
);

const NAMES: string[] = WORKERS.map((w) => w.name);
const bodyOf = (model: string) => JSON.stringify(callsTo(server, model)[0]?.body ?? null);

test("moving workers in the pool keeps every step on its worker; agent numbers follow the new order", async () => {
  await pool.openSettings();
  // Solver GPT (Model id 0) goes to the end: Checker, Judge, Solver.
  await pool.worker(0).getByRole("button", { name: "Move down" }).click();
  await pool.worker(1).getByRole("button", { name: "Move down" }).click();
  for (const [i, w] of [WORKERS[1], WORKERS[2], WORKERS[0]].entries())
    await expect(pool.worker(i).getByTestId("worker-name")).toHaveValue(w.name);
  await pool.closeSettings();
  for (const i of [0, 1, 2]) await expect(studio.workerName(i)).toHaveText(NAMES[i]!);

  await studio.run();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  await studio.waitIdle();
  // Each step called its own worker, once.
  for (const [i, w] of WORKERS.entries()) {
    // (`i` is also the step: step i was planned on worker i.)
    expect(callsTo(server, w.model)).toHaveLength(1);
    expect(bodyOf(w.model)).toContain(ATTEMPTS_THEN_JUDGE.subtasks[i]!);
  }
  // The judge reads the attempts tagged with the numbers the pool gives them now.
  const judge = bodyOf(WORKERS[2].model);
  expect(judge).toContain("<Agent 2 response>");
  expect(judge).toContain("<Agent 0 response>");
  expect(judge).not.toContain("<Agent 1 response>");

  // The export keeps the Conductor's raw numbers, what they meant, and each step's worker id.
  const { json } = await studio.exportRun();
  expect(json.version).toBe(4);
  const round = json.run.rounds[0]!;
  expect(round.lists).toMatchObject({ model_id: [0, 1, 2], workerIds: ["w0", "w1", "w2"] });
  expect(round.steps.map((s) => s.worker)).toEqual(["w0", "w1", "w2"]);
});

test("removing a worker that a step uses asks first, and can give its steps to another worker", async ({
  page,
}) => {
  await pool.openSettings();
  await pool.worker(1).getByTestId("remove-worker").click();
  const confirm = pool.worker(1).getByTestId("remove-confirm");
  await expect(confirm).toContainText(`Step 2 uses “${NAMES[1]}”`);
  // The question takes focus, and has no serious accessibility violation.
  await expect(confirm.getByTestId("remove-cancel")).toBeFocused();
  expect(await seriousViolations(page, { include: '[data-testid="remove-confirm"]' })).toEqual([]);
  await confirm.getByTestId("remove-cancel").click();
  await expect(confirm).toBeHidden();
  await expect(pool.workers()).toHaveCount(3);

  await pool.worker(1).getByTestId("remove-worker").click();
  await confirm.getByTestId("reassign-to").selectOption({ label: NAMES[2]! });
  await confirm.getByTestId("reassign-and-remove").click();
  await expect(pool.workers()).toHaveCount(2);
  await pool.closeSettings();
  await expect(studio.workerName(1)).toHaveText(NAMES[2]!);
  await expect(studio.workerName(2)).toHaveText(NAMES[2]!);

  await studio.run();
  await studio.waitIdle();
  expect(callsTo(server, WORKERS[1].model)).toHaveLength(0);
  expect(callsTo(server, WORKERS[2].model)).toHaveLength(2);
});

test("a worker removed anyway leaves its step asking for one, and Undo brings it back with its key", async ({
  page,
}) => {
  await pool.openSettings();
  await pool.worker(0).getByTestId("worker-key").fill("sk-solver-key-0123456789");
  await pool.worker(0).getByTestId("remove-worker").click();
  await pool.worker(0).getByTestId("remove-anyway").click();
  await expect(pool.workers()).toHaveCount(2);
  // Nothing shifted: the other steps keep their workers.
  await pool.closeSettings();
  await expect(studio.workerName(0)).toHaveText(`“${NAMES[0]}” (not in pool)`);
  await expect(studio.workerName(1)).toHaveText(NAMES[1]!);
  await expect(studio.workerName(2)).toHaveText(NAMES[2]!);
  await studio.selectNode(0);
  await expect(studio.byTestId("worker-select")).toHaveValue("w0");
  await expect(studio.byTestId("worker-select").locator("option:checked")).toHaveText(
    `“${NAMES[0]}” (not in pool)`,
  );
  await studio.run();
  await expect(studio.byTestId("notice")).toContainText(
    "Step 1's worker is no longer in the pool: choose another one for it.",
  );
  expect(callsTo(server, WORKERS[1].model)).toHaveLength(0);

  await pool.openSettings();
  await expect(pool.byTestId("pool-undo")).toContainText(`remove “${NAMES[0]}”`);
  await pool.byTestId("pool-undo").click();
  await expect(pool.workers()).toHaveCount(3);
  await expect(pool.worker(0).getByTestId("worker-name")).toHaveValue(NAMES[0]!);
  await expect(pool.worker(0).getByTestId("worker-key")).toHaveValue("sk-solver-key-0123456789");
  // Redo removes it again; undo once more, and the step is on its worker.
  await pool.byTestId("pool-redo").click();
  await expect(pool.workers()).toHaveCount(2);
  await pool.byTestId("pool-undo").click();
  await expect(pool.workers()).toHaveCount(3);
  await pool.closeSettings();
  await expect(studio.workerName(0)).toHaveText(NAMES[0]!);
  await studio.run();
  await studio.waitIdle();
  const solver = callsTo(server, WORKERS[0].model);
  expect(solver).toHaveLength(1);
  expect(solver[0]?.headers.authorization).toBe("Bearer sk-solver-key-0123456789");
  expect(await page.getByTestId("step-node").count()).toBe(3);
});

test("replacing the pool says which steps lose their worker, and Undo brings the pool back", async () => {
  await pool.openSettings();
  await pool.byTestId("load-paper-pool").click();
  await expect(pool.byTestId("losing-steps")).toHaveText(
    " Steps 1, 2 and 3 use workers the new pool lacks: they will ask for a worker (Undo brings this pool back).",
  );
  await pool.byTestId("confirm-paper-pool-yes").click();
  await expect(pool.workers()).toHaveCount(7);
  await pool.closeSettings();
  await expect(studio.workerName(0)).toHaveText(`“${NAMES[0]}” (not in pool)`);
  await pool.openSettings();
  await pool.byTestId("pool-undo").click();
  await expect(pool.workers()).toHaveCount(3);
  await pool.closeSettings();
  for (const i of [0, 1, 2]) await expect(studio.workerName(i)).toHaveText(NAMES[i]!);
});
