import { expect, test } from "@playwright/test";
import { ConductorPage } from "./pages/conductor.ts";
import { startTestServer } from "./server/server.ts";
import type { TestServer } from "./server/server.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  callsTo,
  conductorText,
} from "./support/scenario.ts";

let server: TestServer;
let conductor: ConductorPage;

test.beforeAll(async () => {
  server = await startTestServer();
});
test.afterAll(async () => {
  await server.close();
});
test.beforeEach(async ({ page }) => {
  server.reset();
  conductor = new ConductorPage(page);
  await conductor.seed({
    poolBaseURL: server.baseURL,
    conductor: { backend: "remote", baseURL: server.baseURL, model: CONDUCTOR_MODEL },
  });
  await conductor.goto();
});

async function constrain(label: string) {
  await conductor.openSettings();
  await conductor.byTestId("conductor-grammar").selectOption({ label });
  await conductor.closeSettings();
}

test("'constrain the plan' with vLLM sends the plan grammar in structured_outputs", async () => {
  await constrain("vLLM (structured_outputs)");
  server.script(CONDUCTOR_MODEL, conductorText(ATTEMPTS_THEN_JUDGE));
  await conductor.studio.ask(QUESTION);
  await conductor.studio.startPlan();
  await conductor.studio.planned(3);
  const [call] = callsTo(server, CONDUCTOR_MODEL);
  const body = call?.body as { structured_outputs?: { grammar?: string } };
  const grammar = body.structured_outputs?.grammar ?? "";
  expect(grammar).toMatch(/^root ::= /m);
  // The pool has three workers: ids 0 to 2 only.
  expect(grammar).toContain('id ::= "0" | "1" | "2"\n');
  expect(body).not.toHaveProperty("ebnf");
});

test("a server that refuses the field fails the plan with a message saying what to change", async () => {
  await constrain("SGLang (ebnf)");
  server.script(CONDUCTOR_MODEL, {
    status: 400,
    errorMessage: "Unknown field: ebnf",
  });
  await conductor.studio.ask(QUESTION);
  await conductor.studio.startPlan();
  const error = conductor.byTestId("plan-error");
  await expect(error).toContainText('does not accept the "ebnf" field');
  await expect(error).toContainText("constrain the plan");
  expect(callsTo(server, CONDUCTOR_MODEL)[0]?.body).toHaveProperty("ebnf");
});

test("the choice belongs to the endpoint: another base URL starts unconstrained", async () => {
  await constrain("Older vLLM (guided_grammar)");
  await conductor.openSettings();
  await expect(conductor.byTestId("conductor-grammar")).toHaveValue("vllm-guided");
  await conductor.fillRemote({ baseURL: "http://127.0.0.1:9/v1" });
  await expect(conductor.byTestId("conductor-grammar")).toHaveValue("off");
  await conductor.fillRemote({ baseURL: server.baseURL });
  await expect(conductor.byTestId("conductor-grammar")).toHaveValue("vllm-guided");
});
