import { expect, test } from "@playwright/test";
import { ConductorPage, chromiumWith } from "./pages/conductor.ts";

// Without --enable-unsafe-webgpu, Debian's headless Chromium has `navigator.gpu` but no adapter:
// what a user without a usable GPU sees. (Launch arguments are per file: see webgpu-software.)
test.use({ launchOptions: chromiumWith() });

let conductor: ConductorPage;

test.beforeEach(async ({ page }) => {
  conductor = new ConductorPage(page);
  await conductor.goto();
});
test.afterEach(() => {
  expect(conductor.studio.errors).toEqual([]);
});

test("without a GPU adapter the studio says WebGPU is unavailable and offers a remote Conductor", async ({
  page,
}) => {
  expect(await page.evaluate(() => "gpu" in navigator)).toBe(true);
  const status = conductor.status();
  await expect(status).toHaveAttribute("data-backend", "webllm");
  const unavailable = conductor.byTestId("webgpu-unavailable");
  await expect(unavailable).toBeVisible();
  await expect(unavailable).toContainText("WebGPU is not available");
  await expect(unavailable).toContainText("no usable GPU");
  await expect(unavailable).toContainText("remote Conductor");
  // Nothing to load here: no load button, no software-adapter talk.
  await expect(conductor.byTestId("load-model")).toHaveCount(0);
  await expect(conductor.byTestId("webgpu-summary")).toHaveCount(0);

  await conductor.byTestId("use-remote").click();
  await expect(conductor.byTestId("settings")).toBeVisible();
  await expect(conductor.byTestId("backend-remote")).toBeChecked();
  for (const field of ["conductor-baseurl", "conductor-model", "conductor-key"])
    await expect(conductor.byTestId(field)).toBeVisible();
  await expect(conductor.byTestId("in-browser-section")).toHaveCount(0);
  await conductor.closeSettings();
  await expect(status).toHaveAttribute("data-backend", "remote");
  await expect(conductor.byTestId("webgpu-unavailable")).toHaveCount(0);
});

test("the in-browser settings repeat the verdict and keep Load disabled", async () => {
  await conductor.openSettings();
  await expect(conductor.byTestId("backend-webllm")).toBeChecked();
  await expect(conductor.byTestId("probe-summary")).toContainText("WebGPU is not available");
  const load = conductor.byTestId("webllm-load");
  await expect(load).toBeDisabled();
  // The reason is beside the button, and is its description for a screen reader.
  await expect(conductor.byTestId("load-disabled-reason")).toContainText("needs WebGPU");
  await expect(load).toHaveAccessibleDescription(/WebGPU is not available/);
  await conductor.page.screenshot({ path: test.info().outputPath("no-webgpu-settings.png") });
});
