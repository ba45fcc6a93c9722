import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  WORKERS,
  conductorText,
  scriptPlan,
  slowly,
} from "./support/scenario.ts";

// A reload while the Conductor writes its plan: what was written is kept, but it is not a plan
// that parsed, and the banner promises no finished step that does not exist.

let server: TestServer;
let studio: HistoryPage;
withStudio((s) => ({ server, studio } = s), { as: HistoryPage });

test("a reload mid-plan: the cut plan is 'plan interrupted', not 'plan parsed', and the banner says no step ran", async ({
  page,
}) => {
  server.script(CONDUCTOR_MODEL, slowly(conductorText(ATTEMPTS_THEN_JUDGE), 6, 120));
  await studio.ask(QUESTION);
  await studio.startPlan();
  const raw = studio.byTestId("conductor-raw");
  await expect(raw).toContainText("short arithmetic check");
  await studio.waitStored("arithmetic check");
  page.on("dialog", (d) => void d.accept());
  await page.reload();

  const conductor = page.getByRole("region", { name: "Conductor" });
  await expect(studio.byTestId("plan-badge")).toHaveText("plan interrupted");
  await expect(conductor).not.toContainText("plan parsed");
  await expect(studio.byTestId("plan-cut")).toContainText("never parsed");
  await expect(raw).toContainText("short arithmetic check");
  const note = studio.byTestId("interrupted-note");
  await expect(note).toContainText("The Conductor was still planning: no step ran.");
  await expect(note).not.toContainText("Finished steps");
  await expect(studio.nodes()).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("reload-mid-plan.png") });

  // Resume plans again (as Plan does), and then the plan is parsed.
  scriptPlan(server);
  await studio.byTestId("resume").click();
  await studio.planned(3);
  await expect(studio.byTestId("plan-badge")).toHaveText("plan parsed");
  await expect(studio.byTestId("plan-cut")).toHaveCount(0);
  await expect(studio.byTestId("run-banner")).toHaveCount(0);
});

test("a reload mid-run: the banner counts the finished steps it really kept", async ({ page }) => {
  scriptPlan(server);
  const [solver, checker] = WORKERS;
  server.setDefault(solver.model, "391 = 17 × 23.");
  server.setDefault(checker.model, slowly("The checker is still factoring 391 by hand", 4, 150));
  await studio.ask(QUESTION);
  await studio.plan(3);
  await studio.run();
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  await expect(studio.output(1)).toContainText("The checker is still");
  await studio.waitStored("The checker is still");
  page.on("dialog", (d) => void d.accept());
  await page.reload();
  await expect(studio.status(1)).toHaveAttribute("data-status", "interrupted");
  await expect(studio.byTestId("interrupted-note")).toContainText(
    "1 finished step kept its output. Resume runs the rest.",
  );
  await expect(studio.byTestId("plan-badge")).toHaveText("plan parsed");
});
