import { expect, test } from "@playwright/test";
import { PoolPage, planText } from "./pages/pool.ts";
import type { TestServer } from "./server/server.ts";
import { startTestServer } from "./server/server.ts";

// Two providers on two origins: one that answers browsers (CORS) and one that does not.
let open: TestServer;
let noCors: TestServer;
const KEY = "sk-pool-spec-0123456789";

test.beforeAll(async () => {
  [open, noCors] = await Promise.all([
    startTestServer({ keys: { locked: KEY }, models: ["listed-a", "listed-b"] }),
    startTestServer({ cors: false }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([open.close(), noCors.close()]);
});

let pool: PoolPage;
test.beforeEach(async ({ page }) => {
  open.reset();
  noCors.reset();
  pool = new PoolPage(page);
  await pool.goto();
  await pool.openSettings();
});
test.afterEach(() => {
  expect(pool.errors).toEqual([]);
});

test("presets fill the endpoint, headers and what is known of browser access", async () => {
  await expect(pool.byTestId("pool-empty")).toBeVisible();

  const openai = await pool.addFromPreset("openai");
  await expect(openai.getByTestId("worker-baseurl")).toHaveValue("https://api.openai.com/v1");
  await expect(openai.getByTestId("worker-model")).toHaveValue("gpt-5");
  await expect(openai.getByTestId("worker-price-input")).toHaveValue("1.25");
  await expect(openai.getByTestId("price-source")).toContainText("as of 2025-08");
  await expect(openai.getByTestId("browser-status")).toHaveAttribute("data-status", "allowed");

  const anthropic = await pool.addFromPreset("anthropic");
  await expect(anthropic.getByTestId("worker-baseurl")).toHaveValue("https://api.anthropic.com/v1");
  await expect(anthropic.getByTestId("browser-status")).toHaveAttribute(
    "data-status",
    "needs_header",
  );
  await expect(anthropic.getByTestId("browser-status")).toContainText(
    "anthropic-dangerous-direct-browser-access",
  );

  const ollama = await pool.addFromPreset("ollama");
  await expect(ollama.getByTestId("worker-baseurl")).toHaveValue("http://localhost:11434/v1");
  await expect(ollama.getByTestId("enable-browser")).toContainText("OLLAMA_ORIGINS");

  const together = await pool.addFromPreset("together");
  await expect(together.getByTestId("worker-price-input")).toHaveValue("");
  await expect(together.getByTestId("price-source")).toContainText("Price unknown");

  // Order is the Model id; reordering and removing keep it dense.
  await expect(pool.workers().getByTestId("worker-model-id")).toHaveText(["0", "1", "2", "3"]);
  await pool.worker(0).getByRole("button", { name: "Move down" }).click();
  expect((await pool.names()).slice(0, 2)).toEqual(["claude-sonnet-4-20250514", "gpt-5"]);
  await pool.worker(2).getByTestId("remove-worker").click();
  await expect(pool.workers()).toHaveCount(3);
  await expect(pool.workers().getByTestId("worker-model-id")).toHaveText(["0", "1", "2"]);
});

test("the Anthropic preset's header reaches the endpoint, with the key, when pointed at it", async () => {
  await pool.addFromPreset("anthropic");
  open.setDefault("claude-local", "ok");
  await pool.configure(0, { baseURL: open.baseURL, model: "claude-local", key: KEY });
  expect((await pool.testConnection(0)).outcome).toBe("ok");
  const call = open.requests.find((r) => r.method === "POST");
  expect(call?.headers).toMatchObject({
    "anthropic-dangerous-direct-browser-access": "true",
    authorization: `Bearer ${KEY}`,
  });
});

test("fetch models lists the endpoint's models and picks one", async () => {
  open.setDefault("scripted-model", "hello");
  await pool.addFromPreset("vllm");
  await pool.configure(0, { baseURL: open.baseURL, model: "" });
  expect(await pool.fetchModels(0)).toEqual(["listed-a", "listed-b", "scripted-model"]);
  await pool.worker(0).getByTestId("model-select").selectOption("scripted-model");
  await expect(pool.worker(0).getByTestId("worker-model")).toHaveValue("scripted-model");

  // An endpoint the browser may not read reports so.
  await pool.configure(0, { baseURL: noCors.baseURL });
  await pool.worker(0).getByTestId("fetch-models").click();
  await expect(pool.worker(0).getByTestId("fetch-models-error")).toContainText(
    "Blocked by the browser (CORS) or unreachable",
  );
});

test("test connection tells every outcome apart", async () => {
  open.setDefault("fast", { content: "ok", latencyMs: 60 });
  open.setDefault("busy", { status: 429 });
  open.setDefault("broken", { status: 500 });
  noCors.setDefault("fast", "ok");
  await pool.addFromPreset("openrouter");

  const cases: { baseURL: string; model: string; key?: string; outcome: string; text: RegExp }[] = [
    { baseURL: open.baseURL, model: "fast", outcome: "ok", text: /^Connected\. \d+ ms\.$/ },
    {
      baseURL: noCors.baseURL,
      model: "fast",
      outcome: "blocked_or_unreachable",
      text: /^Blocked by the browser \(CORS\) or unreachable/,
    },
    {
      baseURL: open.baseURL,
      model: "locked",
      key: "sk-wrong-key-000",
      outcome: "auth",
      text: /401/,
    },
    { baseURL: open.baseURL, model: "nobody", outcome: "not_found", text: /404/ },
    { baseURL: open.baseURL, model: "busy", outcome: "rate_limited", text: /429/ },
    { baseURL: open.baseURL, model: "broken", outcome: "server", text: /HTTP 500/ },
  ];
  for (const c of cases) {
    await pool.configure(0, { baseURL: c.baseURL, model: c.model, key: c.key ?? "" });
    const result = await pool.testConnection(0);
    expect(result.outcome, c.model).toBe(c.outcome);
    expect(result.text, c.model).toMatch(c.text);
  }
  // The no-CORS server did receive the call: the browser, not the network, refused the answer.
  expect(noCors.requests.some((r) => r.path === "/v1/chat/completions")).toBe(true);

  // Success reports the latency the server added, and the right key succeeds.
  await pool.configure(0, { baseURL: open.baseURL, model: "fast", key: "" });
  const fast = await pool.testConnection(0);
  expect(Number(/(\d+) ms/.exec(fast.text)?.[1])).toBeGreaterThanOrEqual(55);
  open.setDefault("locked", "ok");
  await pool.configure(0, { model: "locked", key: KEY });
  expect((await pool.testConnection(0)).outcome).toBe("ok");
});

test("the paper pool loads the paper's seven workers, and the pool exports and imports as JSON", async () => {
  await pool.byTestId("load-paper-pool").click();
  expect(await pool.names()).toEqual([
    "Gemini 2.5 Pro",
    "Claude Sonnet 4",
    "GPT-5",
    "Qwen3-32B (direct)",
    "Qwen3-32B (thinking)",
    "Gemma-3-27B",
    "DeepSeek-R1-Distill-Qwen-32B",
  ]);
  await pool.configure(1, { key: KEY });

  const file = await pool.exportPool();
  expect(file.name).toBe("conductor-pool.json");
  expect(file.text).not.toContain(KEY);
  const json = JSON.parse(file.text) as {
    format: string;
    version: number;
    workers: { name: string }[];
  };
  expect(json.format).toBe("conductor-studio/pool");
  expect(json.version).toBe(1);
  expect(json.workers).toHaveLength(7);

  // Loading the paper pool over a non-empty pool asks first.
  await pool.byTestId("load-paper-pool").click();
  await expect(pool.byTestId("confirm-paper-pool")).toContainText("Replace the 7 workers");
  await pool.page.getByRole("button", { name: "Keep mine" }).click();

  // A bad file changes nothing and says why.
  await pool.importPool("bad.json", '{"format":"conductor-studio/pool","version":9,"workers":[]}');
  await expect(pool.byTestId("pool-transfer-message")).toContainText("newer version");
  await expect(pool.workers()).toHaveCount(7);

  const two = { ...json, workers: json.workers.slice(2, 4) };
  await pool.importPool("two.json", JSON.stringify(two));
  // Importing over a non-empty pool asks first, as loading the paper pool does.
  await expect(pool.byTestId("confirm-import-pool")).toContainText(
    "Replace the 7 workers with the 2 in two.json?",
  );
  await pool.page.getByRole("button", { name: "Keep mine" }).click();
  await expect(pool.workers()).toHaveCount(7);
  await pool.importPool("two.json", JSON.stringify(two));
  await pool.byTestId("confirm-import-pool-yes").click();
  await expect(pool.byTestId("pool-transfer-message")).toContainText("Imported two.json");
  expect(await pool.names()).toEqual(["GPT-5", "Qwen3-32B (direct)"]);
});

test("the run bar estimates tokens and cost before a run, and shows actual figures after", async () => {
  const text = planText({
    model_id: [0, 1],
    subtasks: ["Answer the question.", "Check the answer and reply."],
    access_list: [[], "all"],
  });
  // The plan call reports no tokens, so the totals below are the steps' alone.
  open.script("conductor-m", { content: text, usage: { prompt_tokens: 0, completion_tokens: 0 } });
  open.setDefault("priced", {
    content: "Forty-two.",
    usage: { prompt_tokens: 100, completion_tokens: 10 },
  });
  open.setDefault("routed", {
    content: "Checked: 42.",
    usage: { prompt_tokens: 200, completion_tokens: 20, cost: 0.0042 },
  });
  await pool.useRemoteConductor(open.baseURL, "conductor-m");
  await pool.addFromPreset("custom");
  await pool.configure(0, { name: "Priced", baseURL: open.baseURL, model: "priced" });
  await pool.setPrice(0, 2, 10);
  await pool.worker(0).getByTestId("worker-max-tokens").fill("1000");
  await pool.addFromPreset("openrouter");
  await pool.configure(1, { name: "Routed", baseURL: open.baseURL, model: "routed" });
  await pool.closeSettings();

  await pool.plan("What is six times seven?", 2);
  const summary = pool.byTestId("run-estimate-summary");
  // Step 1 is priced (≤ 1000 output tokens at $10/M, plus its prompt at $2/M); step 2 has no price.
  await expect(summary).toContainText(
    /Estimate: ≤ [\d,]+ tokens · ≤ \$0\.01\d* \(typical ~\$0\.00\d+\) \+ 1 step unpriced/,
  );
  await summary.click();
  await expect(pool.byTestId("run-estimate-step")).toHaveCount(2);
  await expect(pool.byTestId("run-estimate-step").nth(1)).toContainText("unknown price");

  await pool.runToDone(2);
  // 100 * 2/M + 10 * 10/M = 0.0003 for step 1, OpenRouter's own 0.0042 for step 2; the remote
  // Conductor has no price, so its plan call is counted unpriced.
  await expect(pool.byTestId("totals")).toHaveText(
    /^330 tokens · ≥ \$0\.0045, 1 call unpriced · planning [\d.]+ s · running [\d.]+ s$/,
  );
  const head = (i: number) => pool.byTestId("step-node").nth(i).locator(".step-head");
  await head(0).click();
  await expect(pool.byTestId("inspector-output")).toContainText("100 in + 10 out tokens · $0.0003");
  await expect(pool.byTestId("inspector-output")).not.toContainText("provider's figure");
  await head(1).click();
  await expect(pool.byTestId("inspector-output")).toContainText(
    "200 in + 20 out tokens · $0.0042 (provider's figure)",
  );
});
