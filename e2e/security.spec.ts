import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { SANDBOX_FRAME_SCRIPT_HASH } from "../src/engine/eval/code/browser-frame.ts";
import { exportRun } from "../src/engine/run/export.ts";
import { emptyRecord, stepRecord } from "../src/engine/run/record.ts";
import type { Worker } from "../src/engine/schema/worker.ts";
import { PoolPage, planText } from "./pages/pool.ts";
import type { TestServer } from "./server/server.ts";
import { startTestServer } from "./server/server.ts";

// Two origins: `home`, where every key is entered, and `other`, where a changed URL, a switched
// provider or an imported file points the worker next. Every request of the page is intercepted.
const KEY = "sk-entered-for-home-0123456789";
const CONDUCTOR_KEY = "sk-conductor-for-home-0123456789";
const HEADER_SECRET = "helicone-secret-for-home-0123456789";
const ONE_STEP = planText({ model_id: [0], subtasks: ["Answer briefly."], access_list: [[]] });

let home: TestServer;
let other: TestServer;
test.beforeAll(async () => {
  [home, other] = await Promise.all([startTestServer(), startTestServer()]);
});
test.afterAll(async () => {
  await Promise.all([home.close(), other.close()]);
});

interface Seen {
  url: string;
  text: string;
}
let seen: Seen[];
let pool: PoolPage;

test.beforeEach(async ({ page, context }) => {
  for (const s of [home, other]) {
    s.reset();
    s.script("conductor-m", ONE_STEP);
    s.setDefault("conductor-m", ONE_STEP);
    s.setDefault("gpt-m", "391 = 17 × 23.");
  }
  seen = [];
  // Every request the page makes, whatever its origin: recorded with all its headers, and kept
  // off the internet (a provider preset's real host gets an empty 404).
  await context.route("**/*", async (route) => {
    const r = route.request();
    const headers = await r.allHeaders();
    seen.push({ url: r.url(), text: `${r.url()}\n${JSON.stringify(headers)}` });
    const host = new URL(r.url()).hostname;
    if (host === "127.0.0.1" || host === "localhost") await route.continue();
    else await route.fulfill({ status: 404, body: "" });
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  pool = new PoolPage(page);
  await pool.goto();
});
const cspViolations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

test.afterEach(async ({ page }) => {
  expect(pool.errors).toEqual([]);
  // The app works under its policy: nothing but the remote images the tests plant is refused
  // (zod runs jitless, so not even its eval probe).
  const refused = (await cspViolations(page)).filter((v) => !v.startsWith("img-src"));
  expect(refused).toEqual([]);
});

/** Requests carrying one of the secrets to an origin other than the one it was entered for. */
function leaks(): string[] {
  const entered = new Map([
    [KEY, new URL(home.url).origin],
    [CONDUCTOR_KEY, new URL(home.url).origin],
    [HEADER_SECRET, new URL(home.url).origin],
  ]);
  const out: string[] = [];
  for (const r of seen)
    for (const [secret, origin] of entered)
      if (r.text.includes(secret) && new URL(r.url).origin !== origin)
        out.push(`${secret.slice(0, 12)}… sent to ${r.url}`);
  return out;
}
const carrying = (secret: string) => seen.filter((r) => r.text.includes(secret));

/** A remote Conductor and one OpenAI-preset worker at `home`, each with its key, shown to work. */
async function setUp() {
  await pool.openSettings();
  await pool.useRemoteConductor(home.baseURL, "conductor-m", CONDUCTOR_KEY);
  await pool.addFromPreset("openai");
  await pool.configure(0, { baseURL: home.baseURL, model: "gpt-m", key: KEY });
  expect((await pool.testConnection(0)).outcome).toBe("ok");
  expect(carrying(KEY).length).toBeGreaterThan(0);
  return (await pool.worker(0).getAttribute("data-worker-id")) ?? "";
}

/** Plans and runs the one-step workflow; returns the step's final status. */
async function planAndRun(page: Page): Promise<string> {
  await pool.plan("Is 391 prime?", 1);
  await pool.byTestId("run").click();
  const badge = page.locator('[data-testid="step-node"] [data-testid="status-badge"]');
  await expect(badge).toHaveAttribute("data-status", /done|failed/);
  return (await badge.getAttribute("data-status")) ?? "";
}

async function expectHeldBack(i: number) {
  const w = pool.worker(i);
  await expect(w.getByTestId("worker-key")).toHaveAttribute("data-key-state", "moved");
  await expect(w.getByTestId("worker-key")).toHaveValue("");
  await w.getByTestId("test-connection").click();
  await expect(w.getByTestId("connection-refused")).toContainText("is not sent to");
}

test("a base URL edit: the key is not sent to the new origin until the user confirms", async ({
  page,
}) => {
  await setUp();
  await pool.configure(0, { baseURL: other.baseURL });
  await expectHeldBack(0);
  await pool.closeSettings();
  expect(await planAndRun(page)).toBe("failed");
  await expect(page.locator(".step-error")).toContainText("key was entered for");
  expect(leaks()).toEqual([]);
  expect(other.requests).toEqual([]);

  // Confirming sends it, once the user has said so.
  await pool.openSettings();
  await pool.worker(0).getByTestId("confirm-key").click();
  expect((await pool.testConnection(0)).outcome).toBe("ok");
  expect(other.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
});

test("a provider switch: the OpenAI key is not sent to OpenRouter", async () => {
  await setUp();
  await pool.worker(0).getByTestId("worker-provider").selectOption("openrouter");
  await expect(pool.worker(0).getByTestId("worker-baseurl")).toHaveValue(/openrouter\.ai/);
  await expectHeldBack(0);
  await pool.worker(0).getByTestId("fetch-models").click();
  await expect(pool.worker(0).getByTestId("fetch-models-error")).toContainText("is not sent to");
  expect(leaks()).toEqual([]);
  expect(seen.filter((r) => r.url.includes("openrouter.ai"))).toEqual([]);
});

test("the Conductor's URL: its key does not follow it", async ({ page }) => {
  await setUp();
  await pool.closeSettings();
  expect(await planAndRun(page)).toBe("done");
  expect(carrying(CONDUCTOR_KEY).length).toBeGreaterThan(0);
  await pool.openSettings();
  await pool.byTestId("conductor-baseurl").fill(other.baseURL);
  await expect(pool.byTestId("conductor-key")).toHaveAttribute("data-key-state", "moved");
  await expect(pool.byTestId("key-moved").first()).toContainText("is not sent to");
  await pool.closeSettings();
  await pool.byTestId("question").fill("Another question?");
  await pool.byTestId("plan").click();
  await expect(
    pool
      .byTestId("notice")
      .or(page.getByText(/Conductor's key was entered/))
      .first(),
  ).toBeVisible();
  expect(leaks()).toEqual([]);
  expect(other.requests).toEqual([]);
});

test("a pool file reusing the worker's id at another origin gets neither key nor header", async ({
  page,
}) => {
  const id = await setUp();
  const w = pool.worker(0);
  await w.getByTestId("headers-field").locator("summary").click();
  await w.getByTestId("header-add-name").fill("Helicone-Auth");
  await w.getByTestId("header-add-value").fill(HEADER_SECRET);
  await w.getByTestId("header-add").click();
  expect((await pool.testConnection(0)).outcome).toBe("ok");
  expect(carrying(HEADER_SECRET).length).toBeGreaterThan(0);
  // The pool file never holds the header's value.
  const file = await pool.exportPool();
  expect(file.text).toContain('"Helicone-Auth": "[redacted]"');
  expect(file.text).not.toContain(HEADER_SECRET);

  const hostile = {
    format: "conductor-studio/pool",
    version: 1,
    workers: [
      {
        id,
        name: "Same id, other origin",
        baseURL: other.baseURL,
        model: "gpt-m",
        headers: { "Helicone-Auth": "value-from-the-file" },
      },
    ],
  };
  await pool.importPool("hostile.json", JSON.stringify(hostile));
  // Replacing a pool asks first.
  await pool.byTestId("confirm-import-pool-yes").click();
  await expect(pool.byTestId("pool-transfer-message")).toContainText("1 key not sent");
  await expectHeldBack(0);
  await pool.closeSettings();
  expect(await planAndRun(page)).toBe("failed");
  expect(leaks()).toEqual([]);
  expect(carrying("value-from-the-file")).toEqual([]);
});

test("a run file reusing the worker's id at another origin gets no key", async ({ page }) => {
  const id = await setUp();
  await pool.closeSettings();
  const worker: Worker = {
    id,
    name: "Shared result's worker",
    kind: "openai",
    baseURL: other.baseURL,
    model: "gpt-m",
    temperature: 0.2,
    maxTokens: 64,
    prefill: false,
  };
  const base = { ...emptyRecord("shared"), question: "Is 391 prime?", pool: [worker] };
  const step = { worker: id, subtask: "Answer briefly.", access: [] as number[] };
  const record = {
    ...base,
    rounds: [
      {
        index: 0,
        plan: null,
        lists: { model_id: [0], subtasks: [step.subtask], access_list: [[]], workerIds: [id] },
        steps: [stepRecord(base, step, 0)],
        answer: null,
        accepted: false,
      },
    ],
  };
  await pool.byTestId("import-input").setInputFiles({
    name: "shared-run.json",
    mimeType: "application/json",
    buffer: Buffer.from(exportRun(record)),
  });
  // The run opens as its own stored run; the Settings pool is untouched until the user adopts the
  // run's pool, and then the key entered for the worker's own origin is held back.
  await expect(page.getByTestId("step-node")).toHaveCount(1);
  page.once("dialog", (d) => void d.accept());
  await pool.byTestId("use-run-pool").click();
  await expect(pool.byTestId("notice")).toContainText("1 key not sent");
  await pool.byTestId("run").click();
  const badge = page.locator('[data-testid="step-node"] [data-testid="status-badge"]');
  await expect(badge).toHaveAttribute("data-status", "failed");
  expect(leaks()).toEqual([]);
  expect(other.requests.filter((r) => r.method === "POST")).toEqual([]);
});

test("the built page carries the Content-Security-Policy, as a meta and a header", async ({
  page,
}) => {
  const built = readFileSync(new URL("../dist/index.html", import.meta.url), "utf8");
  const response = await page.request.get("/");
  const meta = await page
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute("content");
  for (const policy of [meta, response.headers()["content-security-policy"]]) {
    expect(policy).toContain("img-src 'self' data: blob:");
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(policy).toContain("worker-src 'self' blob:");
    expect(policy).toContain("object-src 'none'");
    // Scripts: this origin, WebAssembly compilation and, by its hash, the code sandbox frame's one
    // relay script (a srcdoc frame inherits the page's policy); no eval, no other inline script.
    expect(policy?.split("; ").find((d) => d.startsWith("script-src"))).toBe(
      `script-src 'self' 'wasm-unsafe-eval' ${SANDBOX_FRAME_SCRIPT_HASH}`,
    );
  }
  expect(built).toContain('http-equiv="Content-Security-Policy"');
  // The app ran under it without a single refusal (zod is jitless: no eval probe).
  expect(await cspViolations(page)).toEqual([]);
});

test("under the policy a remote image makes no request, in the page or in an answer", async ({
  page,
}) => {
  const leak = `${other.url}/leak.png?q=Is-391-prime`;
  await page.evaluate((src) => {
    const img = document.createElement("img");
    img.src = src;
    img.dataset.testid = "remote-img";
    document.body.append(img);
  }, leak);
  await expect.poll(() => cspViolations(page)).toContainEqual(`img-src ${leak}`);

  home.setDefault("gpt-m", `Here: ![chart](${leak}&answer=1) and done.`);
  await setUp();
  await pool.closeSettings();
  expect(await planAndRun(page)).toBe("done");
  await expect(pool.byTestId("final-answer")).toContainText("done");
  expect(other.requests).toEqual([]);
  expect(seen.filter((r) => r.url.includes("leak.png"))).toEqual([]);
});

test("a key typed before the base URL is shown, sent nowhere, and bound once confirmed", async () => {
  await pool.openSettings();
  await pool.addFromPreset("custom");
  await pool.configure(0, { key: KEY });
  await expect(pool.worker(0).getByTestId("worker-key")).toHaveValue(KEY);
  await expect(pool.worker(0).getByTestId("key-needs-url")).toBeVisible();
  await pool.configure(0, { baseURL: home.baseURL, model: "gpt-m" });
  await expectHeldBack(0);
  expect(carrying(KEY)).toEqual([]);
  await pool.worker(0).getByTestId("confirm-key").click();
  expect((await pool.testConnection(0)).outcome).toBe("ok");
  expect(leaks()).toEqual([]);
});
