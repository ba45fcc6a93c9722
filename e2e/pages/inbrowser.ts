import type { Locator } from "@playwright/test";
import { expect } from "@playwright/test";
import type { ScriptedReply } from "../../src/engine/llm/webllm/scripted.ts";
import { seriousViolations } from "../support/axe.ts";
import { storeSettings, storedWorker } from "./settings.ts";
import { StudioPart } from "./studioPart.ts";

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
export class InBrowserPage extends StudioPart {
  /** Stores the pool and the Conductor's settings before the app boots. */
  async seed(pool: readonly SeedWorker[], conductor: Record<string, unknown>) {
    const settings = {
      pool: pool.map((w, i) =>
        "inBrowser" in w
          ? storedWorker(i, {
              name: w.name,
              kind: "webllm",
              baseURL: "",
              model: "",
              prefill: w.prefill,
            })
          : storedWorker(i, { name: w.name, kind: "openai", baseURL: w.baseURL, model: w.model }),
      ),
      conductor,
    };
    await storeSettings(this.page, settings);
  }

  /** Opens the studio with the hook, and waits until the hook is there. */
  async goto() {
    await this.page.goto("/?fake-webllm");
    await expect(this.page.getByRole("heading", { name: "Conductor Studio" })).toBeVisible();
    await this.page.waitForFunction(() => window.__fakeWebLLM !== undefined);
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

  /** The pool editor's note on an in-browser worker (settings open). */
  workerNote(): Locator {
    return this.byTestId("inbrowser-worker-note");
  }

  /** Serious and critical axe violations inside the in-browser worker's note, one line each. */
  noteViolations(): Promise<string[]> {
    return seriousViolations(this.page, { include: '[data-testid="inbrowser-worker-note"]' });
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
