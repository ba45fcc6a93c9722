import { expect, test } from "@playwright/test";
import { z } from "zod";
import { ConductorPage } from "./pages/conductor.ts";
import type { RecordedRequest, TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  WORKERS,
  callsTo,
  conductorText,
  slowly,
} from "./support/scenario.ts";

/** A Conductor model the server serves only with this key. */
const LOCKED_MODEL = "conductor-locked";
const CONDUCTOR_KEY = "sk-conductor-e2e-4242";

/** The parts of a chat request the Conductor sends (the OpenAI client's body). */
const ConductorBodySchema = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  temperature: z.number(),
  max_tokens: z.number(),
  stream: z.literal(true),
});

function conductorBody(request: RecordedRequest | undefined) {
  return ConductorBodySchema.parse(request?.body);
}

let server: TestServer;
let conductor: ConductorPage;
withTestServer((s) => (server = s), { keys: { [LOCKED_MODEL]: CONDUCTOR_KEY } });
withPageObject(ConductorPage, (c) => (conductor = c));

async function seedRemote(model: string) {
  await conductor.seed({
    poolBaseURL: server.baseURL,
    conductor: { backend: "remote", baseURL: server.baseURL, model },
  });
  await conductor.goto();
  await expect(conductor.status()).toHaveAttribute("data-backend", "remote");
  await expect(conductor.status()).toContainText(model);
}

test("a remote Conductor plans end to end with the prompt and generation settings it was given", async () => {
  await seedRemote(CONDUCTOR_MODEL);
  await conductor.openSettings();
  await expect(conductor.byTestId("backend-remote")).toBeChecked();
  await expect(conductor.byTestId("conductor-baseurl")).toHaveValue(server.baseURL);
  await conductor.setGeneration({ temperature: 0.4, maxTokens: 640 });
  await conductor.closeSettings();

  const text = conductorText(ATTEMPTS_THEN_JUDGE);
  server.script(CONDUCTOR_MODEL, slowly(text, 6, 10));
  await conductor.studio.ask(QUESTION);
  await conductor.studio.startPlan();
  const raw = conductor.byTestId("conductor-raw");
  await expect(raw).toContainText("two\nworkers attempt it independently");
  await conductor.studio.planned(3);
  expect(await raw.textContent()).toBe(text);
  for (const [i, subtask] of ATTEMPTS_THEN_JUDGE.subtasks.entries())
    await expect(conductor.studio.subtask(i)).toHaveText(subtask);

  const calls = callsTo(server, CONDUCTOR_MODEL);
  expect(calls).toHaveLength(1);
  const body = conductorBody(calls[0]);
  expect(body.temperature).toBe(0.4);
  expect(body.max_tokens).toBe(640);
  // An OpenAI-compatible endpoint cannot continue an assistant message: system and user only,
  // with the opening folded into the end of the user message.
  expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
  const [system, user] = body.messages.map((m) => m.content);
  expect(system).toContain("You coordinate a team of language models");
  expect(user).toContain(`USER QUESTION:\n${QUESTION}\nEND OF USER QUESTION`);
  expect(user).toContain(
    `AVAILABLE LANGUAGE MODELS:\n${WORKERS.map((w, i) => `Model id ${i}: ${w.name}`).join("\n")}`,
  );
  expect(user).toContain("at most 5 routing steps");
  expect(user).toMatch(/\n\nBegin your reply with this sentence: "[^"]+"$/);
  expect(calls[0]?.headers.authorization).toBeUndefined();
});

test("with anonymous worker lines the Conductor sees only model ids", async () => {
  await seedRemote(CONDUCTOR_MODEL);
  await conductor.openSettings();
  await conductor.byTestId("named-workers").uncheck();
  await conductor.closeSettings();
  server.script(CONDUCTOR_MODEL, conductorText(ATTEMPTS_THEN_JUDGE));
  await conductor.studio.ask(QUESTION);
  await conductor.studio.plan(3);
  const user = conductorBody(callsTo(server, CONDUCTOR_MODEL)[0]).messages[1]?.content ?? "";
  expect(user).toContain("AVAILABLE LANGUAGE MODELS:\nModel id 0\nModel id 1\nModel id 2\n\n");
  for (const w of WORKERS) expect(user).not.toContain(w.name);
});

test("a Conductor endpoint that refuses the key gives a clear plan error and no nodes", async () => {
  await seedRemote(LOCKED_MODEL);
  server.script(LOCKED_MODEL, conductorText(ATTEMPTS_THEN_JUDGE));
  await conductor.studio.ask(QUESTION);
  await conductor.studio.startPlan();
  const error = conductor.byTestId("plan-error");
  await expect(error).toBeVisible();
  await expect(error).toContainText("401");
  await expect(error).toContainText("Incorrect API key");
  const badge = conductor.page.getByRole("region", { name: "Conductor" }).locator(".badge-failed");
  await expect(badge).toHaveText("key refused");
  await expect(badge).toHaveAttribute("title", "Error code: auth");
  // It names the Conductor, not "this worker".
  await expect(error).toContainText("The Conductor's endpoint refused the API key");
  await expect(error).not.toContainText("this worker");
  await expect(conductor.byTestId("notice")).toContainText(
    "The Conductor's plan could not be used",
  );
  await expect(conductor.byTestId("plan")).toBeEnabled();
  await expect(conductor.studio.nodes()).toHaveCount(0);
  // Not retried: a wrong key stays wrong.
  expect(callsTo(server, LOCKED_MODEL)).toHaveLength(1);
});

test("a key set in settings goes to the Conductor only, and never into localStorage", async () => {
  await seedRemote(LOCKED_MODEL);
  await conductor.openSettings();
  await conductor.fillRemote({ key: CONDUCTOR_KEY });
  await conductor.closeSettings();
  server.script(LOCKED_MODEL, conductorText(ATTEMPTS_THEN_JUDGE));
  for (const w of WORKERS) server.setDefault(w.model, `Answer from ${w.name}.`);
  await conductor.studio.ask(QUESTION);
  await conductor.studio.plan(3);
  const [call] = callsTo(server, LOCKED_MODEL);
  expect(call?.headers.authorization).toBe(`Bearer ${CONDUCTOR_KEY}`);

  // The workers share the Conductor's server but not its key.
  await conductor.studio.run();
  await conductor.studio.waitIdle();
  for (const w of WORKERS) {
    const calls = callsTo(server, w.model);
    expect(calls.length, w.model).toBeGreaterThan(0);
    for (const c of calls) expect(c.headers.authorization, w.model).toBeUndefined();
  }

  const stored = await conductor.localStorageText();
  expect(stored).toContain(LOCKED_MODEL); // the settings were saved...
  expect(stored).not.toContain(CONDUCTOR_KEY); // ...without the key
});
