import { expect, test } from "@playwright/test";
import { EvaluatePage } from "./pages/evaluate.ts";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { WORKERS, chatCalls } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;
withStudio((s) => ({ server, studio } = s));

const [SOLVER] = WORKERS;
const chats = () => chatCalls(server);

async function setUp(evaluate: EvaluatePage) {
  server.setDefault(SOLVER.model, {
    content: "Answer: 1",
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  });
  await evaluate.open();
  await evaluate.pickSample("math");
  await evaluate.choose(`single:${SOLVER.name}`);
}

test("a spending cap that is not an amount is refused with a message, and Run waits", async ({
  page,
}) => {
  const evaluate = new EvaluatePage(page);
  await setUp(evaluate);
  const cap = evaluate.byTestId("eval-max-cost");
  await expect(evaluate.byTestId("eval-start")).toBeEnabled();

  await cap.fill("abc");
  await expect(evaluate.byTestId("eval-max-cost-problem")).toContainText("not an amount");
  await expect(cap).toHaveAttribute("aria-invalid", "true");
  await expect(evaluate.byTestId("eval-start")).toBeDisabled();
  await expect(evaluate.byTestId("eval-start-why")).toContainText("Fix the spending cap");

  // A decimal comma where the locale writes a point: refused, with the amount it may mean.
  await cap.fill("0,005");
  await expect(evaluate.byTestId("eval-max-cost-problem")).toContainText("point (0.005)");
  await expect(evaluate.byTestId("eval-start")).toBeDisabled();
  expect(chats()).toHaveLength(0);

  await cap.fill("");
  await expect(evaluate.byTestId("eval-max-cost-problem")).toHaveCount(0);
  await expect(evaluate.byTestId("eval-start")).toBeEnabled();
});

test("a cap that blocks everything says which estimate blocked it, and calls nothing", async ({
  page,
}) => {
  const evaluate = new EvaluatePage(page);
  await setUp(evaluate);
  await evaluate.byTestId("eval-max-cost").fill("0.0001");
  await evaluate.start();
  await expect(evaluate.progress()).toHaveAttribute("data-phase", "cost_cap");
  // The report's progress bar is labelled for assistive technology.
  await expect(page.getByRole("progressbar", { name: "Evaluation progress" })).toHaveAttribute(
    "aria-valuetext",
    "0 of 20 items",
  );
  await expect(page.getByRole("alert").filter({ hasText: "blocks everything" })).toContainText(
    new RegExp(`single:${SOLVER.name} on item math-01 was estimated at \\$0\\.\\d+`),
  );
  expect(chats()).toHaveLength(0);
  expect(studio.errors).toEqual([]);
});

test.describe("in a locale with a decimal comma", () => {
  test.use({ locale: "de-DE" });

  test("0,002 is read as $0.002 and the evaluation stops within it", async ({ page }) => {
    const evaluate = new EvaluatePage(page);
    await setUp(evaluate);
    // 20 items at $0.00014 each would cost $0.0028: the cap stops it part way.
    await evaluate.byTestId("eval-max-cost").fill("0,002");
    await expect(evaluate.byTestId("eval-max-cost-problem")).toHaveCount(0);
    await evaluate.start();
    await expect(evaluate.progress()).toHaveAttribute("data-phase", "cost_cap");
    // Each call costs 100 x $1 + 20 x $2 per million tokens: at most 0.002 / 0.00014 calls.
    const calls = chats().length;
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(20);
    expect(calls * 0.00014).toBeLessThanOrEqual(0.002 + 1e-12);
    await expect(
      page.getByRole("alert").filter({ hasText: "spending cap of $0.0020" }),
    ).toBeVisible();
  });
});
