import { expect, test } from "@playwright/test";
import type { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { withStudio } from "./support/studio.ts";
import { QUESTION, scriptPlanAndAnswers } from "./support/scenario.ts";

let server: TestServer;
let studio: StudioPage;
withStudio((s) => ({ server, studio } = s), { ask: QUESTION });

test("dropping a run file on a typed draft asks first; Keep my draft keeps it", async () => {
  scriptPlanAndAnswers(server);
  await studio.plan(3);
  await studio.run();
  await studio.waitIdle();
  const exported = await studio.exportRun();

  await studio.forgetStoredRuns();
  await expect(studio.nodes()).toHaveCount(0);
  const draft = "My own question, typed and never run.";
  await studio.ask(draft);
  await studio.dropFile(exported.name, exported.text);
  await expect(studio.byTestId("draft-offer")).toContainText("replaces your draft");
  await studio.byTestId("draft-offer-no").click();
  await expect(studio.byTestId("draft-offer")).toHaveCount(0);
  await expect(studio.byTestId("question")).toHaveValue(draft);
  await expect(studio.nodes()).toHaveCount(0);

  // A bad file says so at once, without the question.
  await studio.dropFile("bad.json", "{ nope");
  await expect(studio.byTestId("notice")).toContainText("Could not open bad.json");
  await expect(studio.byTestId("draft-offer")).toHaveCount(0);

  await studio.dropFile(exported.name, exported.text);
  await studio.byTestId("draft-offer-yes").click();
  await expect(studio.nodes()).toHaveCount(3);
  await expect(studio.byTestId("question")).toHaveValue(QUESTION);
});
