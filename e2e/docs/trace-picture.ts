// Not a test: regenerates docs/otel-trace.png, the README's picture of a run as a trace.
// `npx tsx e2e/docs/trace-picture.ts` runs a real two-round run through `conductor-studio run`
// against the local test server (a retried call, reasoning, a refinement round that accepts),
// maps its record with the same code as `conductor-studio otel`, draws the span tree
// (waterfall.ts) and screenshots it in Chromium.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { main } from "../../src/cli/main.ts";
import type { Io } from "../../src/cli/command.ts";
import {
  ATTEMPTS_THEN_CHECK,
  ANSWER_A,
  ANSWER_B,
  CHECKED,
  threeWorkerConfig,
} from "../../src/test-support/cli/cli-harness.ts";
import { traceOf } from "../../src/engine/otel/map.ts";
import { importRun } from "../../src/engine/run/export.ts";
import { startTestServer } from "../server/server.ts";
import { waterfallHtml } from "./waterfall.ts";

const OUT = fileURLToPath(new URL("../../docs/otel-trace.png", import.meta.url));
const ACCEPT = "The checker's answer is right.\nmodel_id = []\nsubtasks = []\naccess_list = []";

const server = await startTestServer();
const dir = await mkdtemp(join(tmpdir(), "trace-picture-"));
try {
  const usage = (p: number, c: number) => ({ prompt_tokens: p, completion_tokens: c });
  server.script(
    "conductor-7b",
    { content: ATTEMPTS_THEN_CHECK, latencyMs: 700, usage: usage(900, 150) },
    { content: ACCEPT, latencyMs: 400, usage: usage(1400, 30) },
  );
  server.script(
    "solver-a",
    { status: 503, latencyMs: 250 },
    { content: ANSWER_A, latencyMs: 900, usage: usage(120, 40) },
  );
  server.script("solver-b", {
    content: ANSWER_B,
    reasoning: ["Pair the ends: ", "1+100, 2+99, ... 50 pairs."],
    latencyMs: 1100,
    usage: usage(110, 60),
  });
  server.script("checker", { content: CHECKED, latencyMs: 600, usage: usage(300, 20) });
  const config = join(dir, "config.json");
  await writeFile(
    config,
    JSON.stringify(
      threeWorkerConfig(server, { rounds: 1, retry: { baseDelayMs: 300, maxDelayMs: 300 } }),
    ),
  );
  let stdout = "";
  const io: Io = {
    stdout: (s) => (stdout += s),
    stderr: (s) => process.stderr.write(s),
    readStdin: () => Promise.resolve(""),
    env: {},
  };
  const question = "What is the sum of the first 100 positive integers?";
  const code = await main(["run", "--config", config, "--question", question], io);
  const read = importRun(stdout);
  if (code !== 0 || !read.ok) throw new Error(`the run failed (exit ${code})`);
  const trace = traceOf(read.record);
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox"],
  });
  const page = await browser.newPage({
    viewport: { width: 1400, height: 100 },
    deviceScaleFactor: 1,
  });
  await page.setContent(
    waterfallHtml(trace, "invoke_workflow conductor — a Conductor run as an OpenTelemetry trace"),
  );
  await page.screenshot({ path: OUT, fullPage: true });
  await browser.close();
  process.stderr.write(`wrote ${OUT} (${trace.spans.length} spans)\n`);
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
