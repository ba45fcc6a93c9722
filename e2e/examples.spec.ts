// The shipped example runs (public/examples): a newcomer with no model and no key opens each from
// the empty canvas in one click, through the ordinary import (checked, stored in History, and a
// draft is not replaced without asking).
import { expect, test } from "@playwright/test";
import { HistoryPage } from "./pages/history.ts";
import { RecursionPage } from "./pages/recursion.ts";
import { withPageObject } from "./support/studio.ts";

let studio: RecursionPage;
withPageObject(RecursionPage, (s) => (studio = s));

const history = () => new HistoryPage(studio.page);

test.beforeEach(async () => {
  // No settings seeded: no Conductor, no workers, as on a first visit.
  await studio.goto();
  await expect(studio.byTestId("welcome")).toBeVisible();
  await expect(studio.byTestId("example-banner")).toHaveCount(0);
});

test("the three-step example opens from the first screen with its graph, answer and History row", async () => {
  await studio.byTestId("example-three-step").click();
  await expect(studio.nodes()).toHaveCount(3);
  await expect(studio.byTestId("welcome")).toHaveCount(0);
  await expect(studio.byTestId("example-banner")).toContainText("Example run");
  await expect(studio.byTestId("question")).toHaveValue(/^Example: /);
  await expect(studio.byTestId("final-answer")).toContainText("5050");
  // The example's own workers are not in a newcomer's Settings: said for an example, no offer
  // to adopt a pool on the test server.
  await expect(studio.byTestId("example-pool-note")).toContainText("its own recorded workers");
  await expect(studio.byTestId("use-run-pool")).toHaveCount(0);
  for (let i = 0; i < 3; i++) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  // Its steps name the workers it was recorded with, not as a fault ("not in pool") of Settings.
  const workers = studio.nodes().locator(".step-worker");
  await expect(workers.first()).toContainText("(the example's worker)");
  await expect(studio.nodes().locator(".step-worker.missing")).toHaveCount(0);
  await expect(studio.nodes()).not.toContainText(["not in pool"]);
  await studio.node(0).click();
  await expect(studio.byTestId("inspector")).toContainText("Step 1 of 3");
  await expect(studio.byTestId("inspector")).toContainText("100 × 101 / 2 = 5050");
  const h = history();
  await h.openHistory();
  await expect(h.entries()).toHaveCount(1);
  await expect(h.entry(0)).toContainText("Example: What is the sum");
});

test("the nested example shows its nested workflow and both rounds", async () => {
  await studio.byTestId("example-nested").click();
  await expect(studio.mainSteps()).toHaveCount(2);
  await expect(studio.byTestId("example-banner")).toBeVisible();
  await expect(studio.roundGroups()).toHaveCount(2);
  await expect(studio.roundGroup(2)).toBeVisible();
  await expect(studio.roundSteps(2)).toHaveCount(1);
  await expect(studio.mainStep(1).locator(".step-worker")).toContainText("The Conductor itself");
  await studio.nestedToggles().click();
  await expect(studio.nestedGroups()).toHaveCount(1);
  await expect(studio.nestedSteps()).toHaveCount(2);
  const h = history();
  await h.openHistory();
  await expect(h.entries()).toHaveCount(1);
  await expect(h.entry(0)).toContainText("Example: Write a Python function");
});

test("an example asks before it replaces a draft, and both examples are kept in History", async () => {
  const draft = "My own question, never run";
  await studio.ask(draft);
  await studio.byTestId("example-three-step").click();
  await expect(studio.byTestId("draft-offer")).toBeVisible();
  await studio.byTestId("draft-offer-no").click();
  await expect(studio.byTestId("question")).toHaveValue(draft);
  await expect(studio.nodes()).toHaveCount(0);

  await studio.byTestId("example-three-step").click();
  await studio.byTestId("draft-offer-yes").click();
  await expect(studio.nodes()).toHaveCount(3);
  // The second example, from History, opens over a stored run: nothing to ask, both are kept.
  const h = history();
  await h.openHistory();
  await expect(h.entries()).toHaveCount(1);
  await studio.byTestId("history-example-nested").click();
  await expect(studio.roundGroups()).toHaveCount(2);
  await expect(studio.byTestId("draft-offer")).toHaveCount(0);
  await expect(h.entries()).toHaveCount(2);
  await expect(studio.byTestId("example-banner")).toBeVisible();
  // The two examples side by side in Compare, before any setup.
  await h.select(h.entry(0));
  await h.select(h.entry(1));
  await studio.byTestId("history-compare").click();
  await expect(studio.byTestId("compare")).toBeVisible();
  await expect(studio.byTestId("compare")).toContainText("5050");
  await expect(studio.byTestId("compare")).toContainText("is_palindrome");
});

test("in an 800 px window the Question drawer steps aside once an example opens, and comes back", async () => {
  await studio.page.setViewportSize({ width: 800, height: 600 });
  // On a first visit the drawer is open: the question is where a newcomer starts.
  await expect(studio.byTestId("left-panel")).toBeVisible();
  await studio.byTestId("example-three-step").click();
  await expect(studio.nodes()).toHaveCount(3);
  // The graph the example brings is in view, not half under the drawer.
  await expect(studio.byTestId("left-panel")).toBeHidden();
  await expect(studio.byTestId("example-banner")).toBeVisible();
  await studio.page.getByRole("button", { name: "Question", exact: true }).click();
  await expect(studio.byTestId("question")).toHaveValue(/^Example: /);
});
