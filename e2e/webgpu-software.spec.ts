import { expect, test } from "@playwright/test";
import {
  ConductorPage,
  WEIGHT_FILES,
  chromiumWith,
  fetchedUnder,
  serveModelRecord,
} from "./pages/conductor.ts";
import type { TestServer } from "./server/server.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";
import {
  ATTEMPTS_THEN_JUDGE,
  CONDUCTOR_MODEL,
  QUESTION,
  conductorText,
} from "./support/scenario.ts";

// --enable-unsafe-webgpu gives Debian's headless Chromium a software adapter (SwiftShader) without
// shader-f16: the in-browser path as far as it goes without a GPU. (Launch arguments are per file:
// see webgpu-none for the browser without an adapter.)
test.use({ launchOptions: chromiumWith("--enable-unsafe-webgpu") });

const CUSTOM_ID = "Test-q4f32_1-MLC";

let server: TestServer;
let conductor: ConductorPage;

withTestServer((s) => (server = s));
withPageObject(ConductorPage, (p) => (conductor = p));

test("a software adapter is named in one notice, and the smallest model is preselected instead of the 7B", async ({
  page,
}) => {
  await conductor.goto();
  expect(await page.evaluate(async () => (await navigator.gpu.requestAdapter()) !== null)).toBe(
    true,
  );
  const summary = conductor.byTestId("webgpu-summary");
  await expect(summary).toContainText("WebGPU is available only through");
  await expect(summary).toContainText("SwiftShader, a software adapter");
  await expect(summary).toContainText("no shader-f16");
  await expect(conductor.byTestId("webgpu-unavailable")).toHaveCount(0);
  // One notice (it was three: software, shader-f16 and the buffer binding size).
  const warnings = conductor.byTestId("webgpu-warning");
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toContainText("very slowly, so the smallest one is preselected");
  await expect(warnings).toContainText("remote Conductor");
  await expect(conductor.status()).toContainText("Qwen2.5 0.5B Instruct (q4f32)");
  await page.screenshot({ path: test.info().outputPath("software-adapter.png") });

  await conductor.byTestId("load-model").click();
  await expect(conductor.byTestId("settings")).toBeVisible();
  await expect(conductor.byTestId("probe-summary")).toContainText("software adapter");
  await expect(conductor.byTestId("in-browser-section").locator(".warning")).toHaveCount(1);
  // The default is the q4f16 build of the 7B; on a software adapter without shader-f16 the probe
  // preselected the smallest q4f32 build (about 310 MB, not 4.8 GB).
  await expect(conductor.byTestId("webllm-model")).toHaveValue("Qwen2.5-0.5B-Instruct-q4f32_1-MLC");
  await expect(conductor.byTestId("webllm-load")).toBeEnabled();
  await expect(conductor.byTestId("load-disabled-reason")).toHaveCount(0);
  // A build the user picks stays picked.
  await conductor.byTestId("webllm-model").selectOption("Qwen2.5-7B-Instruct-q4f32_1-MLC");
  await conductor.closeSettings();
  await page.reload();
  await expect(conductor.byTestId("webgpu-summary")).toBeVisible();
  await expect(conductor.status()).toContainText("Qwen2.5 7B Instruct (q4f32)");
});

test("a served model record with an invalid library: progress, then the load error in plain words; the studio stays usable", async () => {
  await conductor.seed({ poolBaseURL: server.baseURL, conductor: { backend: "webllm" } });
  await conductor.goto();
  const model = serveModelRecord(server, { id: CUSTOM_ID, libLatencyMs: 1500 });

  await conductor.byTestId("load-model").click();
  const message = await conductor.addServedModel(model);
  await expect(message).toContainText("Added.");
  await expect(message).toContainText(`resolve/main/`);
  await expect(conductor.byTestId("webllm-model")).toHaveValue(model.id);

  await conductor.loadModel();
  const progress = conductor.byTestId("settings").getByTestId("load-progress");
  await expect(progress).toBeVisible();
  await expect(progress.getByTestId("load-progress-text")).toHaveText("Starting the model worker…");
  await expect(progress.getByTestId("cancel-load")).toBeVisible();
  await expect(conductor.byTestId("webllm-model")).toBeDisabled();

  const problem = conductor.problem();
  await expect(problem).toBeVisible({ timeout: 30_000 });
  await expect(problem).toHaveAttribute("data-code", "model_lib");
  await expect(problem.locator("strong")).toHaveText("The model library could not be loaded");
  await expect(problem).toContainText("is invalid, missing, or does not match");
  await expect(problem.locator(".next-steps li")).not.toHaveCount(0);
  await expect(problem.locator(".next-steps")).toContainText("remote Conductor");
  await expect(problem.locator("pre")).toContainText("CompileError", { useInnerText: false });
  await expect(conductor.byTestId("load-progress")).toHaveCount(0);

  // WebLLM read the config and the library, and stopped before the tokenizer and any weight.
  const fetched = fetchedUnder(server, model.paths.files);
  expect(fetched).toEqual(["mlc-chat-config.json"]);
  for (const name of [...WEIGHT_FILES, "tokenizer.json"]) expect(fetched).not.toContain(name);
  expect(fetchedUnder(server, model.paths.lib)).toEqual([""]);
  // What it did fetch is cached: the model is listed as a partial download, and can be deleted.
  const cached = conductor.byTestId("cached-models");
  await expect(cached).toContainText(model.id);
  await expect(cached).toContainText("(partial)");

  // The studio stays usable: the status panel shows the same problem, the form and the question
  // box still work, and switching to the remote Conductor plans.
  await expect(conductor.byTestId("webllm-load")).toBeEnabled();
  await expect(conductor.byTestId("webllm-model")).toBeEnabled();
  await cached.getByRole("button", { name: "Delete" }).click();
  await expect(conductor.byTestId("cached-models")).toHaveCount(0);
  await conductor.closeSettings();
  await expect(conductor.status().getByTestId("webllm-problem")).toHaveAttribute(
    "data-code",
    "model_lib",
  );
  await conductor.studio.ask(QUESTION);
  await expect(conductor.byTestId("question")).toHaveValue(QUESTION);

  server.script(CONDUCTOR_MODEL, conductorText(ATTEMPTS_THEN_JUDGE));
  await conductor.openSettings();
  await conductor.chooseBackend("remote");
  await conductor.fillRemote({ baseURL: server.baseURL, model: CONDUCTOR_MODEL });
  await conductor.closeSettings();
  await expect(conductor.status()).toHaveAttribute("data-backend", "remote");
  await conductor.studio.plan(3);
  await expect(conductor.byTestId("webllm-problem")).toHaveCount(0);
});

test("a model library that is not there reads as a download problem, before any weight is fetched", async () => {
  await conductor.goto();
  const model = serveModelRecord(server, { id: CUSTOM_ID });
  server.serveFile(model.paths.lib, { body: "", status: 404 });
  await conductor.byTestId("load-model").click();
  await conductor.addServedModel(model);
  await conductor.loadModel();
  const problem = conductor.problem();
  await expect(problem).toHaveAttribute("data-code", "model_download", { timeout: 30_000 });
  await expect(problem.locator("strong")).toHaveText("The model could not be downloaded");
  // Cache.add's error does not say which file failed, so the advice names both URLs.
  await expect(problem.locator(".next-steps")).toContainText(
    "check the weights URL and the model library URL",
  );
  await expect(problem.locator("pre")).toContainText("Failed to execute 'add' on 'Cache'", {
    useInnerText: false,
  });
  // The weights are not fetched in parallel with the library: nothing after the config.
  expect(fetchedUnder(server, model.paths.files)).toEqual(["mlc-chat-config.json"]);
  expect(fetchedUnder(server, model.paths.lib)).toEqual([""]);
});

test("cancelling while the model worker starts returns to a loadable state", async () => {
  await conductor.goto();
  // The library never arrives within the test: the load waits on it until cancelled.
  const model = serveModelRecord(server, { id: CUSTOM_ID, libLatencyMs: 60_000 });
  await conductor.byTestId("load-model").click();
  await conductor.addServedModel(model);
  await conductor.loadModel();
  const progress = conductor.byTestId("settings").getByTestId("load-progress");
  await expect(progress).toBeVisible();
  // Cancel while the library is in flight (WebLLM's import and the worker's start come first).
  await expect.poll(() => fetchedUnder(server, model.paths.lib), { timeout: 30_000 }).toEqual([""]);
  await progress.getByTestId("cancel-load").click();
  await expect(conductor.byTestId("load-progress")).toHaveCount(0);
  // At most a "Cancelled" note, never a load error.
  await expect(
    conductor.page.locator('[data-testid="webllm-problem"]:not([data-code="aborted"])'),
  ).toHaveCount(0);
  await expect(conductor.byTestId("webllm-load")).toBeEnabled();
  await expect(conductor.byTestId("webllm-model")).toBeEnabled();
});

test("an invalid custom weights or library URL is refused with a clear message and adds nothing", async () => {
  await conductor.goto();
  await conductor.byTestId("load-model").click();
  const select = conductor.byTestId("webllm-model");
  const before = await select.inputValue();
  const optionsBefore = await conductor.modelOptions();
  const cases = [
    { weightsUrl: "models/Test-q4f32_1-MLC", libUrl: "", says: "is not an absolute URL" },
    {
      weightsUrl: "ftp://example.com/Test-q4f32_1-MLC",
      libUrl: "",
      says: "ftp: URLs are not fetched",
    },
    {
      weightsUrl: "https://example.com/Test-q4f32_1-MLC/mlc-chat-config.json",
      libUrl: "",
      says: "point to the folder that holds mlc-chat-config.json",
    },
    {
      weightsUrl: "https://example.com/Test-q4f32_1-MLC",
      libUrl: "https://example.com/lib.js",
      says: "a model library is a .wasm file",
    },
  ];
  for (const c of cases) {
    const message = await conductor.addCustomModel({ id: CUSTOM_ID, ...c });
    await expect(message).toContainText(c.says);
    await expect(message).toHaveClass(/error-box/);
    expect(await conductor.modelOptions()).toEqual(optionsBefore);
    await expect(select).toHaveValue(before);
  }
  expect(server.requests).toEqual([]);
});
