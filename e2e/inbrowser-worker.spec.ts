import { expect, test } from "@playwright/test";
import { chromiumWith } from "./pages/conductor.ts";
import type { FakeRequest } from "./pages/inbrowser.ts";
import { InBrowserPage } from "./pages/inbrowser.ts";
import { planText } from "./pages/pool.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";
import { CONDUCTOR_MODEL, QUESTION, callsTo } from "./support/scenario.ts";

// In-browser workers over the ?fake-webllm hook: the model "loads" as a scripted engine, through
// the studio's real load path, WebLLM backend and one-generation-at-a-time queue. The software
// WebGPU adapter makes the probe pass, so the Load buttons are offered as on a machine with a GPU.
test.use({ launchOptions: chromiumWith("--enable-unsafe-webgpu") });

let server: TestServer;
let app: InBrowserPage;

withTestServer((s) => (server = s));
withPageObject(InBrowserPage, (p) => (app = p));

const SOLVER = "solver-gpt";
const JUDGE = "judge-qwen";
/** What a step on an in-browser worker says with no model loaded (LOAD_IN_BROWSER_MODEL). */
const LOAD_TEXT =
  "Load one in Settings (Load on the in-browser worker, or Conductor → In this browser), then run this step again.";
const FOLDED_PREFILL = `\n\nBegin your reply with this sentence: "Let's work through this step by step."`;

const ATTEMPT = "Attempt it on this computer.";
const CHECK = "Check it on this computer.";
const LOCAL_ATTEMPT = "In-browser attempt: 391 = 17 × 23.";
const LOCAL_CHECK = "In-browser check: 17 × 23 = 391, so not prime.";

/** Each generation on the fake engine was one user message ending in the folded prefill. */
function expectFoldedPrefill(requests: FakeRequest[]) {
  for (const r of requests) {
    expect(r.messages.map((m) => m.role)).toEqual(["user"]);
    expect(r.messages[0]?.content.endsWith(FOLDED_PREFILL)).toBe(true);
  }
}

test("with a remote Conductor: in-browser steps say what to load, then run on the loaded model one at a time", async () => {
  await app.seed(
    [
      { name: "Solver GPT", model: SOLVER, baseURL: server.baseURL },
      // An imported in-browser worker with the step-by-step prefill on.
      { name: "In-browser model", inBrowser: true, prefill: true },
      { name: "Judge Qwen", model: JUDGE, baseURL: server.baseURL },
    ],
    { backend: "remote", baseURL: server.baseURL, model: CONDUCTOR_MODEL },
  );
  server.script(
    CONDUCTOR_MODEL,
    planText({
      model_id: [0, 1, 1, 2],
      subtasks: ["Solve it remotely.", ATTEMPT, CHECK, "Compare and answer."],
      access_list: [[], [], [], "all"],
    }),
  );
  server.setDefault(SOLVER, "Remote solver: 391 = 17 × 23.");
  server.setDefault(JUDGE, "Judge: not prime.");
  await app.goto();
  await app.script([
    { when: `Your assigned subtask: ${ATTEMPT}`, text: LOCAL_ATTEMPT },
    { when: `Your assigned subtask: ${CHECK}`, text: LOCAL_CHECK },
  ]);
  const studio = app.studio;
  await studio.ask(QUESTION);
  await studio.plan(4);

  // (a) No model loaded: the estimate warns before the run, and the pool says so.
  await expect(app.estimateWarning()).toContainText("Steps 2, 3");
  await expect(app.estimateWarning()).toContainText("in-browser model, which is not loaded");
  await app.openSettings();
  await expect(app.workerNote()).toHaveAttribute("data-loaded", "false");
  await expect(app.workerNote()).toContainText("No in-browser model is loaded");
  await expect(app.byTestId("inbrowser-prefill-note")).toContainText(
    "sent as an instruction in the user message",
  );
  expect(await app.noteViolations()).toEqual([]);
  await app.closeSettings();

  await studio.run();
  await studio.waitIdle();
  await expect(studio.status(0)).toHaveAttribute("data-status", "done");
  for (const i of [1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "failed");
  await expect(studio.status(3)).toHaveAttribute("data-status", "skipped");
  await studio.selectNode(1);
  await expect(app.inspectorError()).toContainText("The in-browser model is not loaded yet.");
  await expect(app.inspectorError()).toContainText(LOAD_TEXT);
  // What the worker will read: the prefill folded into its one user message.
  const preview = studio.byTestId("worker-preview");
  await expect(preview).toContainText(FOLDED_PREFILL.trim());
  await expect(preview).not.toContainText("[assistant]");
  // Nothing is lost: the remote step's answer stays, and the fake engine was never called.
  await expect(studio.output(0)).toHaveText("Remote solver: 391 = 17 × 23.");
  expect(await app.requests()).toEqual([]);

  // (b) Load the model from the worker's card; the Conductor stays remote.
  await app.openSettings();
  await app.loadFromWorkerCard();
  await expect(app.workerNote()).toContainText("Runs on Qwen2.5-0.5B-Instruct-q4f32_1-MLC");
  expect(await app.noteViolations()).toEqual([]);
  await app.closeSettings();
  // On a software adapter the smallest build is preselected.
  expect(await app.loads()).toEqual(["Qwen2.5-0.5B-Instruct-q4f32_1-MLC"]);
  await expect(app.byTestId("conductor-status")).toHaveAttribute("data-backend", "remote");
  await expect(app.estimateWarning()).toHaveCount(0);

  await expect(studio.byTestId("rerun-from")).toHaveText("Retry this step");
  await studio.byTestId("rerun-from").click();
  await studio.waitIdle();
  for (const i of [0, 1, 2, 3]) {
    await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  }
  await expect(studio.output(1)).toHaveText(LOCAL_ATTEMPT);
  await expect(studio.output(2)).toHaveText(LOCAL_CHECK);
  await expect(studio.byTestId("final-answer")).toContainText("Judge: not prime.");
  // The two independent in-browser steps could have run in parallel: they went one at a time.
  const requests = await app.requests();
  expect(requests).toHaveLength(2);
  expect(await app.maxActive()).toBe(1);
  // The prefill reached the model folded into the user message, never as an assistant message.
  expectFoldedPrefill(requests);
  // The remote solver was kept, not asked again; the judge read both in-browser answers.
  expect(callsTo(server, SOLVER)).toHaveLength(1);
  const judged = JSON.stringify(callsTo(server, JUDGE)[0]?.body);
  expect(judged).toContain(LOCAL_ATTEMPT);
  expect(judged).toContain(LOCAL_CHECK);
});

test("with the in-browser Conductor: the plan and the in-browser steps share the loaded model, in turn", async () => {
  await app.seed(
    [
      { name: "In-browser model", inBrowser: true },
      { name: "Judge Qwen", model: JUDGE, baseURL: server.baseURL },
    ],
    { backend: "webllm", webllmGrammar: false },
  );
  server.setDefault(JUDGE, "Judge: not prime.");
  await app.goto();
  await app.script([
    {
      when: "AVAILABLE LANGUAGE MODELS",
      text: planText({
        model_id: [0, 0, 1],
        subtasks: [ATTEMPT, CHECK, "Compare and answer."],
        access_list: [[], [], "all"],
      }),
    },
    { when: `Your assigned subtask: ${ATTEMPT}`, text: LOCAL_ATTEMPT },
    { when: `Your assigned subtask: ${CHECK}`, text: LOCAL_CHECK },
  ]);
  const status = app.byTestId("conductor-status");
  await expect(status).toHaveAttribute("data-backend", "webllm");
  await expect(status.getByTestId("load-model")).toBeVisible();

  await app.openSettings();
  await expect(app.workerNote()).toHaveAttribute("data-loaded", "false");
  await app.loadConductorModel();
  await expect(app.workerNote()).toHaveAttribute("data-loaded", "true");
  await app.closeSettings();
  await expect(status.getByTestId("model-ready")).toBeVisible();

  const studio = app.studio;
  await studio.ask(QUESTION);
  await studio.plan(3);
  await expect(app.estimateWarning()).toHaveCount(0);
  await studio.run();
  await studio.waitIdle();
  for (const i of [0, 1, 2]) await expect(studio.status(i)).toHaveAttribute("data-status", "done");
  await expect(studio.output(0)).toHaveText(LOCAL_ATTEMPT);
  await expect(studio.output(1)).toHaveText(LOCAL_CHECK);
  await expect(studio.byTestId("final-answer")).toContainText("Judge: not prime.");
  // The plan, then both steps: one engine, one generation at a time.
  const requests = await app.requests();
  expect(requests).toHaveLength(3);
  expect(requests[0]?.messages.at(-1)?.content).toContain("AVAILABLE LANGUAGE MODELS");
  expect(await app.maxActive()).toBe(1);
});
