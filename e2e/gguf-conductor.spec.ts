import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import type { Locator } from "@playwright/test";
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

// Files dragged from the desktop and dropped on the GGUF section: read in place like picked ones,
// checked first (the GGUF magic, every part of a split model), each refusal with its reason.
test("GGUF files dropped on the section load, and a wrong or incomplete drop says why", async () => {
  test.setTimeout(120_000);
  const gguf = join(mkdtempSync(join(tmpdir(), "tiny-gguf-")), "tiny.gguf");
  execFileSync("python3", ["scripts/make-tiny-gguf.py", gguf]);
  await studio.seed(server.baseURL, WORKERS, CONDUCTOR_MODEL, { backend: "webllm" });
  await studio.goto();
  await studio.openSettings();
  const section = studio.byTestId("gguf-section");
  // Before any speed test, the catalogue's default (the 7B) says how to get an estimate first.
  await expect(section.getByTestId("gguf-estimate")).toContainText("not measured yet");
  await expect(section.getByTestId("gguf-size-note")).toContainText("approximate");

  await drop(section, [
    { name: "notes.gguf", bytes: Buffer.from("PK\x03\x04 a zip, not a model") },
  ]);
  await expect(section.getByTestId("gguf-error")).toContainText("notes.gguf is not a GGUF file");
  const part = Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(60)]);
  await drop(section, [{ name: "qwen-00001-of-00002.gguf", bytes: part }]);
  await expect(section.getByTestId("gguf-error")).toContainText(
    "qwen-00002-of-00002.gguf is missing",
  );

  await drop(section, [{ name: "tiny.gguf", bytes: readFileSync(gguf) }]);
  await expect(section.getByTestId("gguf-ready")).toHaveText("gguf:tiny ready", {
    timeout: 30_000,
  });
  await expect(section.getByTestId("gguf-error")).toHaveCount(0);
  // Measured on the tiny model: too small to project a 7B from, and the section says so.
  await section.getByTestId("gguf-speed").click();
  await expect(section.getByTestId("gguf-speed-result")).toContainText("Measured on this device", {
    timeout: 20_000,
  });
  await expect(section.getByTestId("gguf-estimate")).toContainText("too small to project from");
  await page(studio).screenshot({ path: "/tmp/i39-gguf-drop.png" });
  await studio.closeSettings();
  // The status panel names the model that is loaded, not the WebLLM one it stands in for.
  await expect(studio.byTestId("conductor-model")).toHaveText("tiny (GGUF)");
});

/** Drops `files` on `target` as a desktop drag would (a DataTransfer of Files). */
async function drop(target: Locator, files: { name: string; bytes: Buffer }[]) {
  const data = files.map((f) => ({ name: f.name, b64: f.bytes.toString("base64") }));
  const transfer = await target.page().evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list)
      dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
    return dt;
  }, data);
  await target.dispatchEvent("dragover", { dataTransfer: transfer });
  await target.dispatchEvent("drop", { dataTransfer: transfer });
}

const page = (s: StudioPage) => s.page;
