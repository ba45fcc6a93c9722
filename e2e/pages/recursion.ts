import type { Locator, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import { storeSettings, storedWorker } from "./settings.ts";
import { StudioPage } from "./studio.ts";

/** A worker of the seeded pool: an endpoint on the test server, or the Conductor itself. */
export interface SeedWorker {
  name: string;
  /** The model name the test server answers to; absent for the Conductor itself. */
  model?: string;
}

/** The recursion settings of docs/protocol.md §1.6 (src/state/slices/settings.ts). */
export interface RecursionSettings {
  /** Refinement rounds after the first. */
  rounds: number;
  maxDepth: number;
  /** Cap on model calls in a run; 0: none. */
  maxCalls: number;
}

/**
 * Page object for refinement rounds and nested workflows. The canvas then holds three kinds of
 * step node with the same test id: the editable first round's (React Flow ids without a slash),
 * a later round's (`round-<r>/s<i>`) and a nested workflow's (`<step id>/nested/s<i>`); these
 * locators tell them apart by the id on React Flow's node wrapper.
 */
export class RecursionPage extends StudioPage {
  constructor(page: Page) {
    super(page);
  }

  /** Stores a pool (a worker without a model is the Conductor itself) and a remote Conductor. */
  async seedRecursion(
    baseURL: string,
    pool: readonly SeedWorker[],
    conductorModel: string,
    settings: RecursionSettings,
  ) {
    const stored = {
      pool: pool.map((w, i) =>
        w.model === undefined
          ? storedWorker(i, { name: w.name, kind: "conductor", baseURL: "", model: "" })
          : storedWorker(i, { name: w.name, kind: "openai", baseURL, model: w.model }),
      ),
      conductor: { backend: "remote", baseURL, model: conductorModel, ...settings },
    };
    await storeSettings(this.page, stored);
  }

  /** Seeds the pool, the Conductor and its recursion settings (see seedRecursion), then opens the studio. */
  async open(
    baseURL: string,
    pool: readonly SeedWorker[],
    conductorModel: string,
    settings: RecursionSettings,
  ) {
    await this.seedRecursion(baseURL, pool, conductorModel, settings);
    await this.goto();
  }

  /** Asks `question`, plans, and waits until the Conductor is done and round 1 has `steps` steps. */
  async planRound1(question: string, steps: number) {
    await this.ask(question);
    await this.startPlan();
    await expect(this.byTestId("plan")).toBeEnabled();
    await expect(this.mainSteps()).toHaveCount(steps);
  }

  private stepsUnder(wrapperSelector: string): Locator {
    return this.page.locator(`${wrapperSelector} [data-testid="step-node"]`);
  }

  /** Step nodes of the editable first round. */
  mainSteps(): Locator {
    return this.stepsUnder('.react-flow__node-step:not([data-id*="/"])');
  }

  mainStep(i: number): Locator {
    return this.mainSteps().and(this.page.locator(`[data-index="${i}"]`));
  }

  /** Round group boxes, the first round's backdrop included. */
  roundGroups(): Locator {
    return this.byTestId("group-round");
  }

  /** The group box of round `n` (1-based, as labelled). */
  roundGroup(n: number): Locator {
    return this.page.locator(`[data-testid="group-round"][data-label="Round ${n}"]`);
  }

  /** Step nodes of refinement round `n` (1-based; n >= 2), without its nested workflows. */
  roundSteps(n: number): Locator {
    return this.stepsUnder(
      `.react-flow__node-step[data-id^="round-${n - 1}/s"]:not([data-id*="/nested"])`,
    );
  }

  nestedGroups(): Locator {
    return this.byTestId("group-nested");
  }

  /** Step nodes of every expanded nested workflow. */
  nestedSteps(): Locator {
    return this.stepsUnder('.react-flow__node-step[data-id*="/nested/"]');
  }

  nestedStep(i: number): Locator {
    return this.nestedSteps().and(this.page.locator(`[data-index="${i}"]`));
  }

  /** The "previous round" edges drawn into rounds that see the previous round. */
  previousRoundEdges(): Locator {
    return this.page.locator(".react-flow__edge.edge-previous");
  }

  nestedToggles(): Locator {
    return this.byTestId("nested-toggle");
  }

  /** React Flow's wrapper of a step node (its parent element): carries the `draggable` class. */
  wrapperOf(step: Locator): Locator {
    return step.locator("xpath=..");
  }
}
