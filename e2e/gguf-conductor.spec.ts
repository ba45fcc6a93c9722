import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { StudioPage } from "./pages/studio.ts";
import type { TestServer } from "./server/server.ts";
import { CONDUCTOR_MODEL, WORKERS } from "./support/scenario.ts";
import { withTestServer } from "./support/server.ts";
import { withPageObject } from "./support/studio.ts";

// The first test in which the in-browser Conductor generates real tokens: the tiny GGUF that
// scripts/make-tiny-gguf.py writes, picked from disk, runs in real llama.cpp (wllama's WebAssembly,
// single-threaded on the CPU: the preview server sends no cross-origin isolation headers) under
// the plan grammar. No fake engine: its plan is parsed, drawn and run against the test server.

let server: TestServer;
let studio: StudioPage;

withTestServer((s) => (server = s));
withPageObject(StudioPage, (p) => (studio = p));

test("a GGUF Conductor loaded from disk plans with real tokens, and the plan runs", async () => {
  // Real llama.cpp on a CPU shared with other jobs: loading, prefill and decoding take seconds.
  test.setTimeout(180_000);
  const gguf = join(mkdtempSync(join(tmpdir(), "tiny-gguf-")), "tiny.gguf");
  execFileSync("python3", ["scripts/make-tiny-gguf.py", gguf]);
  await studio.seed(server.baseURL, WORKERS, CONDUCTOR_MODEL, {
    backend: "webllm",
    maxTokens: 200,
  });
  server.setDefault(WORKERS[0].model, "391 = 17 × 23, so it is not prime.");
  await studio.goto();
  await studio.openSettings();
  const section = studio.byTestId("gguf-section");
  await section.getByTestId("gguf-file").setInputFiles(gguf);
  await expect(section.getByTestId("gguf-ready")).toHaveText("gguf:tiny ready", {
    timeout: 30_000,
  });
  // The speed test: llama.cpp's own prefill and decode figures on this device.
  await section.getByTestId("gguf-speed").click();
  await expect(section.getByTestId("gguf-speed-result")).toContainText(/prefill \d+\.\d tok\/s/, {
    timeout: 20_000,
  });
  await page(studio).screenshot({ path: "/tmp/i39-gguf-settings.png" });
  await studio.closeSettings();

  await studio.ask("Is 391 prime?");
  await studio.startPlan();
  // Real decoding on a shared CPU: the prompt's prefill takes seconds.
  await expect(studio.byTestId("plan")).toBeEnabled({ timeout: 120_000 });
  await studio.planned(1);
  await studio.run();
  await expect(studio.byTestId("final-answer")).toHaveText("391 = 17 × 23, so it is not prime.");
  await page(studio).screenshot({ path: "/tmp/i39-gguf-run.png" });
  // The Conductor was never asked over HTTP: only the worker was.
  // Chat calls with a body (a CORS preflight has none).
  const chats = server.requests.filter((r) => r.path === "/v1/chat/completions" && r.body);
  expect(chats.map((r) => (r.body as { model?: string }).model)).toEqual([WORKERS[0].model]);
  // The worker got the subtask the tiny model wrote.
  expect(JSON.stringify(chats[0]?.body)).toContain("Answer the question.");
});

const page = (s: StudioPage) => s.page;
