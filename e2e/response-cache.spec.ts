import { expect, test } from "@playwright/test";
import { SAMPLE_SETS } from "../src/engine/eval/dataset/samples.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { openEvaluate } from "./support/studio.ts";
import { WORKERS, chatCalls } from "./support/scenario.ts";

let server: TestServer;
withTestServer((s) => (server = s));

const [SOLVER, CHECKER] = WORKERS;
const FACTS = SAMPLE_SETS.find((s) => s.id === "factual")!.items;
const itemOf = (body: ChatBody) =>
  FACTS.find((i) => JSON.stringify(body.messages).includes(i.question));
const chats = () => chatCalls(server);

/** The solver is right; the checker is never sure. */
function script() {
  server.setDefault(SOLVER.model, (b) => ({
    content: `Answer: ${itemOf(b)?.expected ?? "?"}`,
    usage: { prompt_tokens: 1000, completion_tokens: 100 },
  }));
  server.setDefault(CHECKER.model, () => ({
    content: "I am not sure.",
    usage: { prompt_tokens: 1000, completion_tokens: 100 },
  }));
}

test("an evaluation run again after a scorer change is answered from the cache: 0 upstream calls", async ({
  page,
}) => {
  script();
  const { studio, evaluate } = await openEvaluate(page, server);
  // On by default, read-write, empty.
  await expect(evaluate.byTestId("eval-cache")).toBeChecked();
  await expect(evaluate.byTestId("eval-cache-mode")).toHaveValue("read-write");
  await expect(evaluate.byTestId("eval-cache-size")).toHaveText("Stored: empty");
  await expect(evaluate.byTestId("eval-cache-clear")).toBeDisabled();
  await evaluate.pickSample("factual");
  await evaluate.choose(`single:${SOLVER.name}`, `single:${CHECKER.name}`);
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished", { timeout: 30_000 });
  const first = chats().length;
  expect(first).toBe(20);
  await expect(evaluate.byTestId("eval-cache-summary")).toHaveCount(0);
  await expect(evaluate.byTestId("eval-cache-size")).toHaveText(/^Stored: 20 answers · \d+ KB$/);

  // A scorer change (one that asks for the same answer format), then the same evaluation again.
  await evaluate.byTestId("eval-scorer").selectOption("exact");
  server.requests.length = 0;
  await evaluate.start();
  // 20 calls at 1000 in + 100 out, $1 and $2 per million tokens: $0.0012 each. The line is this
  // run's (the first had none), so the run is over once it reads 20 and the phase says so.
  await expect(evaluate.byTestId("eval-cache-summary")).toHaveText(
    "20 calls answered from the response cache, at no cost: $0.02 saved. The costs below count only the money spent.",
    { timeout: 30_000 },
  );
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished");
  expect(chats()).toHaveLength(0);
  await expect(evaluate.byTestId("eval-scorers")).toContainText("exact");
  await page.screenshot({ path: "test-results/response-cache-report.png", fullPage: true });

  // An item opened from the report says its call came from the cache (and cost nothing).
  await evaluate.cell(FACTS[0]!.id, `single:${SOLVER.name}`).click();
  await expect(evaluate.byTestId("item-step-0")).toContainText("$0");
  await expect(evaluate.byTestId("item-step-cached-0")).toHaveText(
    "from the response cache, no call made ($0.0012 saved)",
  );
  await page.screenshot({ path: "test-results/response-cache-item-run.png" });
  await page.keyboard.press("Escape");

  // Clear asks first; Keep it keeps it.
  await evaluate.byTestId("eval-cache-clear").click();
  await expect(evaluate.byTestId("eval-cache-confirm")).toContainText(
    "Delete every stored answer (20 answers",
  );
  await page
    .getByRole("region", { name: "Strategies", exact: true })
    .screenshot({ path: "test-results/response-cache-clear.png" });
  await evaluate.byTestId("eval-cache-clear-no").click();
  await expect(evaluate.byTestId("eval-cache-size")).toHaveText(/^Stored: 20 answers/);
  await evaluate.byTestId("eval-cache-clear").click();
  await evaluate.byTestId("eval-cache-clear-yes").click();
  await expect(evaluate.byTestId("eval-cache-size")).toHaveText("Stored: empty");

  // Emptied: the next run calls the providers again (its report has no cache line).
  await evaluate.start();
  await expect(evaluate.byTestId("eval-cache-summary")).toHaveCount(0);
  await expect.poll(() => chats().length, { timeout: 30_000 }).toBe(20);
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished", { timeout: 30_000 });
  expect(chats()).toHaveLength(20);
  expect(studio.errors).toEqual([]);
});

test("with the cache off, the same evaluation calls the providers again", async ({ page }) => {
  script();
  const { studio, evaluate } = await openEvaluate(page, server);
  await evaluate.byTestId("eval-cache").uncheck();
  await expect(evaluate.byTestId("eval-cache-mode")).toBeDisabled();
  await evaluate.pickSample("factual");
  await evaluate.choose(`single:${SOLVER.name}`);
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished", { timeout: 30_000 });
  await expect.poll(() => chats().length, { timeout: 30_000 }).toBe(10);
  await evaluate.start();
  await expect.poll(() => chats().length, { timeout: 30_000 }).toBe(20);
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "finished", { timeout: 30_000 });
  expect(chats()).toHaveLength(20);
  await expect(evaluate.byTestId("eval-cache-summary")).toHaveCount(0);
  await expect(evaluate.byTestId("eval-cache-size")).toHaveText("Stored: empty");
  expect(studio.errors).toEqual([]);
});
