import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { ScriptedReply } from "../../src/engine/llm/webllm/scripted.ts";
import { StudioPage } from "./studio.ts";

/** Where the app keeps its settings (src/state/persist.ts). */
const SETTINGS_KEY = "conductor-studio.settings.v1";

/** A worker as the stored settings hold it: on the test server, or in this browser. */
export type SeedWorker =
  | { name: string; model: string; baseURL: string }
  | { name: string; inBrowser: true; prefill?: boolean };

/** One request the fake engine received, as the hook hands it over. */
export interface FakeRequest {
  messages: { role: string; content: string }[];
}

/**
 * Page object for in-browser workers over the `?fake-webllm` hook: the studio's models load as a
 * scripted engine (src/state/fakeWebLLMHook.ts) through the real load path.
 */
export class InBrowserPage {
  readonly studio: StudioPage;

  constructor(readonly page: Page) {
    this.studio = new StudioPage(page);
  }

  /** Stores the pool and the Conductor's settings before the app boots. */
  async seed(pool: readonly SeedWorker[], conductor: Record<string, unknown>) {
    const settings = {
      pool: pool.map((w, i) => ({
        id: `w${i}`,
        name: w.name,
        kind: "inBrowser" in w ? "webllm" : "openai",
        baseURL: "inBrowser" in w ? "" : w.baseURL,
        model: "inBrowser" in w ? "" : w.model,
        temperature: 0.2,
        maxTokens: 512,
        prefill: "inBrowser" in w ? (w.prefill ?? false) : false,
      })),
      conductor,
    };
    await this.page.addInitScript(([key, value]) => localStorage.setItem(key, value), [
      SETTINGS_KEY,
      JSON.stringify(settings),
    ] as const);
  }

  /** Opens the studio with the hook, and waits until the hook is there. */
  async goto() {
    await this.page.goto("/?fake-webllm");
    await expect(this.page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
    await this.page.waitForFunction(() => window.__fakeWebLLM !== undefined);
  }

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  script(replies: ScriptedReply[]): Promise<void> {
    return this.page.evaluate((r) => window.__fakeWebLLM?.script(r), replies);
  }

  requests(): Promise<FakeRequest[]> {
    return this.page.evaluate(() => window.__fakeWebLLM?.requests() ?? []);
  }

  maxActive(): Promise<number> {
    return this.page.evaluate(() => window.__fakeWebLLM?.maxActive() ?? -1);
  }

  loads(): Promise<string[]> {
    return this.page.evaluate(() => window.__fakeWebLLM?.loads() ?? []);
  }

  async openSettings() {
    await this.byTestId("open-settings").click();
    await expect(this.byTestId("settings")).toBeVisible();
  }

  async closeSettings() {
    await this.byTestId("settings-close").click();
    await expect(this.byTestId("settings")).toBeHidden();
  }

  /** The pool editor's note on an in-browser worker (settings open). */
  workerNote(): Locator {
    return this.byTestId("inbrowser-worker-note");
  }

  /** Serious and critical axe violations inside the in-browser worker's note, one line each. */
  async noteViolations(): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page: this.page })
      .include('[data-testid="inbrowser-worker-note"]')
      .analyze();
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }

  /** Loads the model from the in-browser worker's card, confirming the first download. */
  async loadFromWorkerCard() {
    await this.workerNote().getByTestId("inbrowser-worker-load").click();
    const confirm = this.byTestId("inbrowser-worker-confirm");
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Download and load" }).click();
    await expect(this.workerNote()).toHaveAttribute("data-loaded", "true");
  }

  /** Loads the Conductor's in-browser model in settings (open), confirming the first download. */
  async loadConductorModel() {
    await this.byTestId("webllm-load").click();
    await this.byTestId("confirm-download-yes").click();
  }

  estimateWarning(): Locator {
    return this.byTestId("estimate-needs-model");
  }

  /** The error the inspector shows for the selected step. */
  inspectorError(): Locator {
    return this.byTestId("inspector").getByRole("alert");
  }
}
