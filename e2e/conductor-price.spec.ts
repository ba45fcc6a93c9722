import { expect, test } from "@playwright/test";
import { z } from "zod";
import { ConductorPage } from "./pages/conductor.ts";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  PLAN_USAGE,
  QUESTION,
  WORKERS,
  scriptPlan,
} from "./support/scenario.ts";

/** The parts of an exported run this spec reads: the Conductor's price and the costs. */
const CostsSchema = z.object({
  conductor: z.object({ price: z.object({ input: z.number(), output: z.number() }).optional() }),
  rounds: z.array(z.object({ plan: z.object({ cost: z.number() }) })),
  totals: z.object({ cost: z.number() }),
});

const StoredSchema = z.object({ conductor: CostsSchema.shape.conductor });

let server: TestServer;
let studio: StudioPage;
let conductor: ConductorPage;

// Every test opens the studio on a plan that reports PLAN_USAGE (400 in, 80 out).
withStudio(
  (s) => {
    ({ server, studio } = s);
    conductor = new ConductorPage(studio.page);
  },
  {
    script: (s) => scriptPlan(s, ATTEMPTS_THEN_JUDGE, { usage: PLAN_USAGE }),
    unpricedConductor: true,
  },
);

// The server's usage figures (PLAN_USAGE and this) and the prices: every dollar below follows from them.
const STEP_USAGE = { prompt_tokens: 100, completion_tokens: 20 };
const CONDUCTOR_PRICE = { input: 3, output: 15 }; // 400 * 3 + 80 * 15 = 2,400 per million: $0.0024
// StudioPage.seed prices every worker at $1 in / $2 out: 100 * 1 + 20 * 2 = 140 per million a step.
const PLAN_COST = "$0.0024";
const TOTAL_COST = "$0.0028"; // 0.0024 + 3 * 0.00014 = 0.00282

test("a priced Conductor's plan counts in the estimate, the plan, the run's totals and the export", async () => {
  for (const w of WORKERS)
    server.setDefault(w.model, { content: `Answer from ${w.name}.`, usage: STEP_USAGE });
  await conductor.openSettings();
  await expect(conductor.byTestId("conductor-price-source")).toContainText("Price unknown");
  await conductor.setPrice(CONDUCTOR_PRICE);
  await expect(conductor.byTestId("conductor-price-source")).toContainText("Your price");
  await conductor.closeSettings();

  await studio.ask(QUESTION);
  await studio.plan(3);
  await expect(conductor.page.getByRole("region", { name: "Conductor" })).toContainText(
    `480 tokens · ${PLAN_COST}`,
  );
  // Before the run: the plan it continues is already spent, and counted.
  await expect(conductor.byTestId("run-estimate-conductor")).toHaveText(
    ` · planning ${PLAN_COST} (spent)`,
  );
  await expect(studio.byTestId("totals")).toContainText(`480 tokens · ${PLAN_COST}`);

  await studio.run();
  await studio.waitIdle();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  // 480 for the plan and 120 for each of the three steps; the cost is the plan's and the steps'.
  await expect(studio.byTestId("totals")).toContainText(
    `840 tokens · ${TOTAL_COST} (incl. Conductor ${PLAN_COST}) · planning`,
  );

  const run = CostsSchema.parse((await studio.exportRun()).raw.run);
  expect(run.conductor.price).toEqual(CONDUCTOR_PRICE);
  expect(run.rounds[0]?.plan.cost).toBeCloseTo(0.0024, 12);
  expect(run.totals.cost).toBeCloseTo(0.00282, 12);

  // The price is kept with the other Conductor settings (the seed would replace them on a reload).
  const stored = await conductor.page.evaluate(() =>
    localStorage.getItem("conductor-studio.settings.v1"),
  );
  expect(StoredSchema.parse(JSON.parse(stored ?? "null")).conductor.price).toEqual(CONDUCTOR_PRICE);
});

test("without a price the estimate and the plan say so; in the browser planning is free", async () => {
  await studio.ask(QUESTION);
  await studio.plan(3);
  await expect(conductor.byTestId("run-estimate-conductor")).toHaveText(
    " · planning cost unknown: the Conductor has no price",
  );
  await expect(conductor.page.getByRole("region", { name: "Conductor" })).toContainText(
    "480 tokens · cost unknown (set the Conductor's price in Settings)",
  );

  await conductor.openSettings();
  await conductor.chooseBackend("webllm");
  await expect(conductor.byTestId("conductor-price-free")).toContainText("Planning is free");
  await expect(conductor.byTestId("conductor-price-input")).toHaveCount(0);
});
