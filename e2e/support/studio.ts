import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { EvaluatePage } from "../pages/evaluate.ts";
import { StudioPage } from "../pages/studio.ts";
import type { TestServer, TestServerOptions } from "../server/server.ts";
import { withTestServer } from "./server.ts";

/** A page object that collects the page's uncaught exceptions. */
export interface WatchesErrors {
  readonly errors: readonly string[];
}

/**
 * Before each test, the spec's page object (of class `PageObject`) on the test's page, which `set`
 * hands to the spec; after each test, the page raised no error.
 */
export function withPageObject<P extends WatchesErrors>(
  PageObject: new (page: Page) => P,
  set: (pageObject: P) => void,
): void {
  let current: P | undefined;
  test.beforeEach(({ page }) => {
    current = new PageObject(page);
    set(current);
  });
  test.afterEach(() => {
    expect(current?.errors).toEqual([]);
  });
}

/** What a spec gets before each test: the file's test server and the test's studio. */
export interface StudioSpec<P extends StudioPage> {
  server: TestServer;
  studio: P;
}

/** How the studio is opened before each test; each step is skipped when its option is absent. */
export interface StudioOptions {
  /** The test server's options (keys, extra models). */
  server?: TestServerOptions;
  /** Scripts the (freshly reset) server before the studio opens. */
  script?: (server: TestServer) => void;
  /** Typed as the question once the studio is open. */
  ask?: string;
  /** After `ask`: plans, and waits until the Conductor is done and this many steps are on the canvas. */
  plan?: number;
  /** Seeds the Conductor without its default price (its plans then count as unpriced). */
  unpricedConductor?: boolean;
}

/**
 * The usual spec setup: one test server per file (see withTestServer); before each test the
 * server scripted, a studio seeded with the scenario's pool on that server and opened, then the
 * question asked and planned where the options say so; after each test, no page error. `set`
 * hands the server and the test's studio (a StudioPage, or of the page-object class `as`) to the spec.
 * (The generic signature comes first: TypeScript types a callback once, on the first overload tried.)
 */
export function withStudio<P extends StudioPage>(
  set: (spec: StudioSpec<P>) => void,
  options: StudioOptions & { as: new (page: Page) => P },
): void;
export function withStudio(
  set: (spec: StudioSpec<StudioPage>) => void,
  options?: StudioOptions,
): void;
export function withStudio(
  set: (spec: StudioSpec<StudioPage>) => void,
  options: StudioOptions & { as?: new (page: Page) => StudioPage } = {},
): void {
  const { as: PageObject = StudioPage, server: serverOptions, script, ...open } = options;
  let server: TestServer;
  let studio: StudioPage;
  withTestServer((s) => (server = s), serverOptions);
  withPageObject(PageObject, (s) => (studio = s));
  test.beforeEach(async () => {
    set({ server, studio });
    script?.(server);
    await openStudio(studio, server, open);
  });
}

/** Seeds `studio` with the scenario's pool on `server` and opens it; then asks and plans as told. */
export async function openStudio<P extends StudioPage>(
  studio: P,
  server: TestServer,
  { ask, plan, unpricedConductor }: Pick<StudioOptions, "ask" | "plan" | "unpricedConductor"> = {},
): Promise<P> {
  const conductor = unpricedConductor ? { price: undefined } : {};
  await studio.seed(server.baseURL, undefined, undefined, conductor);
  await studio.goto();
  if (ask !== undefined) await studio.ask(ask);
  if (plan !== undefined) await studio.plan(plan);
  return studio;
}

/** A studio seeded on `server` and opened on its Evaluate view. */
export async function openEvaluate(
  page: Page,
  server: TestServer,
): Promise<{ studio: StudioPage; evaluate: EvaluatePage }> {
  const studio = await openStudio(new StudioPage(page), server);
  const evaluate = new EvaluatePage(page);
  await evaluate.open();
  return { studio, evaluate };
}
