import type { Locator, Page } from "@playwright/test";
import { StudioPage } from "./studio.ts";

/** A page object for one part of the studio (a panel, a backend); studio-wide actions come from `studio`. */
export class StudioPart {
  readonly studio: StudioPage;

  constructor(readonly page: Page) {
    this.studio = new StudioPage(page);
  }

  /** Uncaught exceptions in the page (the studio's record of them). */
  get errors(): readonly string[] {
    return this.studio.errors;
  }

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  openSettings(): Promise<void> {
    return this.studio.openSettings();
  }

  closeSettings(): Promise<void> {
    return this.studio.closeSettings();
  }
}
