import { expect, test } from "@playwright/test";
import { StudioPage } from "../pages/studio.ts";
import type { TestServer } from "../server/server.ts";
import { withTestServer } from "./server.ts";

/**
 * The usual spec setup: one test server per file (see withTestServer); before each test a studio
 * seeded with the scenario's pool on that server and opened, with `ask` typed as the question when
 * given; after each test, no page error. `set` hands the server and the test's studio to the spec.
 */
export function withStudio(
  set: (spec: { server: TestServer; studio: StudioPage }) => void,
  options: { ask?: string } = {},
): void {
  let server: TestServer;
  let studio: StudioPage | undefined;
  withTestServer((s) => (server = s));
  test.beforeEach(async ({ page }) => {
    studio = new StudioPage(page);
    set({ server, studio });
    await studio.seed(server.baseURL);
    await studio.goto();
    if (options.ask !== undefined) await studio.ask(options.ask);
  });
  test.afterEach(() => {
    expect(studio?.errors).toEqual([]);
  });
}
