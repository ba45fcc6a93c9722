import { expect, test } from "@playwright/test";
import { RecursionPage } from "./pages/recursion.ts";
import type { ChatBody, TestServer } from "./server/server.ts";
import { callsTo, conductorText, lastUserText } from "./support/scenario.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";

// A step given to the Conductor itself: the inspector shows what the Conductor will read; past
// the nesting-depth cap such a step is one plain call to the Conductor's model, which the step
// says, and which costs what a Conductor call costs.
const CONDUCTOR = "conductor-7b";
const POOL = [{ name: "GPT-5", model: "gpt-5" }, { name: "The Conductor itself" }];
const QUESTION = "Is 391 prime?";
const DRAFT = "Factor 391 by trial division.";
const VERIFY = "Verify the factorisation and answer.";
const DEEP = "Check everything once more.";
const TOP_PLAN = conductorText(
  { model_id: [0, 1], subtasks: [DRAFT, VERIFY], access_list: [[], "all"] },
  "Plan.",
);
// The nested Conductor hands its one step to the Conductor again: past a cap of 1.
const NESTED_PLAN = conductorText(
  { model_id: [1], subtasks: [DEEP], access_list: ["all"] },
  "Plan.",
);

const lastUser = lastUserText;
const isPlan = (b: ChatBody) => lastUser(b).includes("USER QUESTION:");
const isNestedPlan = (b: ChatBody) => isPlan(b) && lastUser(b).includes("<overall_task>");

let server: TestServer;
let studio: RecursionPage;
withTestServer((s) => (server = s));
withPageObject(RecursionPage, (s) => (studio = s));

test("past the nesting-depth cap the step says so and its Conductor call is costed; the inspector shows what the Conductor reads", async ({
  page,
}) => {
  server.setDefault(CONDUCTOR, (body) => ({
    content: isNestedPlan(body) ? NESTED_PLAN : isPlan(body) ? TOP_PLAN : "Checked: 391 = 17 × 23.",
    usage: { prompt_tokens: 1000, completion_tokens: 500 },
  }));
  server.setDefault("gpt-5", {
    content: "391 = 17 × 23.",
    usage: { prompt_tokens: 100, completion_tokens: 20 },
  });
  // The Conductor's price: $2 in, $6 out per million tokens; no provider figure is sent.
  const settings = { rounds: 0, maxDepth: 1, maxCalls: 0, price: { input: 2, output: 6 } };
  await studio.open(server.baseURL, POOL, CONDUCTOR, settings);
  await studio.planRound1(QUESTION, 2);

  // The inspector of the step given to the Conductor shows the nested plan's prompt.
  await studio.selectNode(1);
  const inspector = studio.byTestId("inspector");
  await expect(inspector.locator(".worker-preview summary")).toHaveText(
    "What the Conductor will read (it plans a nested workflow for this step)",
  );
  const preview = studio.byTestId("worker-preview");
  await expect(preview).toContainText("USER QUESTION:");
  await expect(preview).toContainText("AVAILABLE LANGUAGE MODELS:");
  await expect(preview).toContainText(VERIFY);
  await expect(preview).toContainText("(response of step 1, once it has run)");
  await expect(preview).not.toContainText("You solve one subtask");
  // An ordinary worker's step still shows its worker's message.
  await studio.selectNode(0);
  await expect(inspector.locator(".worker-preview summary")).toHaveText(
    "What this worker will read",
  );

  await studio.run();
  await studio.waitIdle();
  await expect(studio.byTestId("final-answer")).toContainText("Checked: 391 = 17 × 23.");
  // What the nested plan read is what the inspector showed, with step 1's answer in place.
  const [nested] = callsTo(server, CONDUCTOR).filter((r) => isNestedPlan(r.body as ChatBody));
  expect(lastUser(nested!.body as ChatBody)).toContain(VERIFY);
  expect(lastUser(nested!.body as ChatBody)).toContain("391 = 17 × 23.");

  await studio.mainStep(1).getByTestId("nested-toggle").click();
  const deep = studio.nestedStep(0);
  await expect(deep.getByTestId("status-badge")).toHaveAttribute("data-status", "done");
  await expect(deep.getByTestId("depth-cap-note")).toContainText("Nesting-depth cap reached");
  // 1,000 in and 500 out at the Conductor's price: $0.002 + $0.003.
  await expect(deep.locator(".step-stats")).toContainText("1,500 tok");
  await expect(deep.locator(".step-stats")).toContainText("$0.0050");
  await expect(studio.mainStep(1).getByTestId("depth-cap-note")).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("depth-cap.png") });
});
