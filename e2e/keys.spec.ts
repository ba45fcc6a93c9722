import type { Request } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { PoolPage, planText } from "./pages/pool.ts";
import type { TestServer } from "./server/server.ts";
import { startTestServer } from "./server/server.ts";

// Three providers on three origins (ports). Each accepts only its own key for its model.
const KEY_A = "sk-openai-like-AAAA-0123456789";
const KEY_B = "sk-anthropic-like-BBBB-0123456789";
const KEY_C = "sk-openrouter-like-CCCC-0123456789";
const KEY_CONDUCTOR = "sk-conductor-DDDD-0123456789";
const ALL_KEYS = [KEY_A, KEY_B, KEY_C, KEY_CONDUCTOR];
const QUESTION = "Is 391 a prime number?";
const PLAN = planText({
  model_id: [0, 1, 2],
  subtasks: ["Try trial division.", "Factor it independently.", "Compare and answer."],
  access_list: [[], [], "all"],
});

let a: TestServer;
let b: TestServer;
let c: TestServer;
test.beforeAll(async () => {
  [a, b, c] = await Promise.all([
    startTestServer({ keys: { "gpt-a": KEY_A } }),
    startTestServer({ keys: { "claude-b": KEY_B } }),
    startTestServer({ keys: { "qwen-c": KEY_C, "conductor-c": KEY_CONDUCTOR } }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([a.close(), b.close(), c.close()]);
});

let pool: PoolPage;
test.beforeEach(async ({ page }) => {
  for (const s of [a, b, c]) s.reset();
  a.setDefault("gpt-a", "391 = 17 × 23.");
  b.setDefault("claude-b", "17 × 23 = 391, so it is not prime.");
  c.setDefault("qwen-c", "Not prime: 391 = 17 × 23.");
  c.script("conductor-c", PLAN);
  pool = new PoolPage(page);
  await pool.goto();
});
test.afterEach(() => {
  expect(pool.errors).toEqual([]);
});

/** Through the UI: three workers from presets, each pointed at its own server, with its key. */
async function setUpThreeProviders() {
  await pool.openSettings();
  await pool.useRemoteConductor(c.baseURL, "conductor-c", KEY_CONDUCTOR);
  await pool.addFromPreset("openai");
  await pool.configure(0, { baseURL: a.baseURL, model: "gpt-a", key: KEY_A });
  await pool.addFromPreset("anthropic");
  await pool.configure(1, { baseURL: b.baseURL, model: "claude-b", key: KEY_B });
  await pool.addFromPreset("openrouter");
  await pool.configure(2, { baseURL: c.baseURL, model: "qwen-c", key: KEY_C });
  await pool.closeSettings();
}

/** Which keys belong to which origin. */
function keysByOrigin(): Map<string, string[]> {
  return new Map([
    [new URL(a.url).origin, [KEY_A]],
    [new URL(b.url).origin, [KEY_B]],
    [new URL(c.url).origin, [KEY_C, KEY_CONDUCTOR]],
  ]);
}

// The time it takes is printed (target < 60 s), not asserted: a loaded CI machine must not fail it.
test("a new user goes from an empty pool to a first run", async () => {
  a.script(
    "conductor-a",
    planText({ model_id: [0], subtasks: ["Answer briefly."], access_list: [[]] }),
  );
  const started = Date.now();
  await pool.openSettings();
  await expect(pool.byTestId("pool-empty")).toBeVisible();
  await pool.useRemoteConductor(a.baseURL, "conductor-a");
  await pool.addFromPreset("openai");
  await pool.configure(0, { baseURL: a.baseURL, model: "gpt-a", key: KEY_A });
  expect((await pool.testConnection(0)).outcome).toBe("ok");
  await pool.closeSettings();
  await pool.plan(QUESTION, 1);
  await expect(pool.estimate()).toContainText("≤");
  await pool.runToDone(1);
  await expect(pool.byTestId("final-answer")).toContainText("17 × 23");
  const seconds = (Date.now() - started) / 1000;
  console.log(`Empty pool to first run through the UI: ${seconds.toFixed(1)} s (target < 60 s)`);
  test
    .info()
    .annotations.push({ type: "empty-pool-to-first-run", description: `${seconds.toFixed(1)} s` });
});

test("each key is sent only to its own worker's origin", async ({ page }) => {
  const seen: Promise<{ url: string; auth: string | undefined }>[] = [];
  page.on("request", (r: Request) => {
    seen.push(r.allHeaders().then((h) => ({ url: r.url(), auth: h.authorization })));
  });
  await setUpThreeProviders();
  await pool.plan(QUESTION, 3);
  await pool.runToDone(3);

  const owners = keysByOrigin();
  const requests = await Promise.all(seen);
  const withAuth = requests.filter((r) => r.auth !== undefined);
  expect(withAuth.length).toBeGreaterThanOrEqual(4); // the plan and three steps
  for (const r of withAuth) {
    const origin = new URL(r.url).origin;
    expect(owners.get(origin), `no key may go to ${origin}`).toBeDefined();
    expect(
      owners.get(origin)?.map((k) => `Bearer ${k}`),
      r.url,
    ).toContain(r.auth);
  }
  // No request anywhere carries a key in its URL either.
  for (const r of requests) for (const key of ALL_KEYS) expect(r.url).not.toContain(key);

  // What each server received: only its own keys, and each key was used.
  const received = (s: TestServer) =>
    new Set(s.requests.map((r) => r.headers.authorization).filter((h) => h !== undefined));
  expect(received(a)).toEqual(new Set([`Bearer ${KEY_A}`]));
  expect(received(b)).toEqual(new Set([`Bearer ${KEY_B}`]));
  expect(received(c)).toEqual(new Set([`Bearer ${KEY_CONDUCTOR}`, `Bearer ${KEY_C}`]));
  // The Anthropic preset's browser header went to the Anthropic-like worker only.
  expect(
    b.requests.some((r) => r.headers["anthropic-dangerous-direct-browser-access"] === "true"),
  ).toBe(true);
  expect(a.requests.some((r) => "anthropic-dangerous-direct-browser-access" in r.headers)).toBe(
    false,
  );
});

test("after a run with keys, no key is in an export, storage, IndexedDB or the console", async () => {
  await setUpThreeProviders();
  await pool.plan(QUESTION, 3);
  await pool.runToDone(3);

  const run = await pool.exportRun();
  await pool.openSettings();
  const poolFile = await pool.exportPool();
  const storage = await pool.localStorageText();
  const session = await pool.page.evaluate(() => JSON.stringify({ ...sessionStorage }));
  const idb = await pool.indexedDbText();
  const consoleText = pool.console.join("\n");

  expect(run.text).toContain('"format": "conductor-studio/run"');
  expect(poolFile.text).toContain('"format": "conductor-studio/pool"');
  expect(storage).toContain("conductor-studio.settings.v1");
  for (const key of ALL_KEYS) {
    expect(run.text, "run export").not.toContain(key);
    expect(poolFile.text, "pool export").not.toContain(key);
    expect(storage, "localStorage").not.toContain(key);
    expect(session, "sessionStorage").not.toContain(key);
    expect(idb, "IndexedDB").not.toContain(key);
    expect(consoleText, "console").not.toContain(key);
  }
  expect(storage).not.toContain("conductor-studio.keys.v1");
  // The keys are still held in memory for this page.
  expect(await pool.keyValues()).toEqual([KEY_A, KEY_B, KEY_C]);
});

test("without the opt-in, keys are gone after a reload", async ({ page }) => {
  await setUpThreeProviders();
  await page.reload();
  await pool.openSettings();
  expect(await pool.keyValues()).toEqual(["", "", ""]);
  await expect(pool.byTestId("conductor-key")).toHaveValue("");
  await expect(pool.byTestId("keys-warning")).toContainText("memory only");
  expect((await pool.testConnection(0)).outcome).toBe("auth");
});

test("with the opt-in, keys survive a reload, and forget removes them everywhere", async ({
  page,
}) => {
  await setUpThreeProviders();
  await pool.openSettings();
  await pool.setRememberKeys(true);
  await expect(pool.byTestId("keys-warning")).toContainText("unencrypted");
  const stored = await pool.localStorageText();
  expect(stored).toContain("conductor-studio.keys.v1");
  for (const key of ALL_KEYS) expect(stored).toContain(key);
  // The settings entry itself still holds no key.
  const settings = await page.evaluate(() => localStorage.getItem("conductor-studio.settings.v1"));
  for (const key of ALL_KEYS) expect(settings).not.toContain(key);

  await page.reload();
  await pool.openSettings();
  expect(await pool.keyValues()).toEqual([KEY_A, KEY_B, KEY_C]);
  await expect(pool.byTestId("conductor-key")).toHaveValue(KEY_CONDUCTOR);
  await expect(pool.byTestId("remember-keys")).toBeChecked();
  expect((await pool.testConnection(1)).outcome).toBe("ok");

  await pool.forgetKeys();
  expect(await pool.keyValues()).toEqual(["", "", ""]);
  await expect(pool.byTestId("remember-keys")).not.toBeChecked();
  const after = await pool.localStorageText();
  for (const key of ALL_KEYS) expect(after).not.toContain(key);
  expect(after).not.toContain("conductor-studio.keys.v1");

  await page.reload();
  await pool.openSettings();
  expect(await pool.keyValues()).toEqual(["", "", ""]);
  expect((await pool.testConnection(1)).outcome).toBe("auth");
});
