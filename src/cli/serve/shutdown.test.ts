// `conductor-studio serve` starting and stopping: the loopback rule, and Ctrl+C with a run in flight
// (finished within the grace period, or cancelled past it).
import { join } from "node:path";
import { describe, it } from "vitest";
import type { Harness } from "../../test-support/cli/cli-harness.ts";
import {
  ATTEMPTS_THEN_CHECK,
  ANSWER_A,
  ANSWER_B,
  CHECKED,
  CLI_TIMEOUT_MS,
  ask,
  harness,
  runCli,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { readRuns, startServe } from "../../test-support/cli/serve-child.ts";

/** Scripts a run whose checker call is held for `latencyMs`; resolves when that call arrives. */
function holdChecker(h: Harness, latencyMs: number): Promise<void> {
  h.server.script("conductor-7b", ATTEMPTS_THEN_CHECK);
  h.server.script("solver-a", ANSWER_A);
  h.server.script("solver-b", ANSWER_B);
  return new Promise((resolve) => {
    h.server.script("checker", () => {
      resolve();
      return { content: CHECKED, latencyMs };
    });
  });
}

/** A test server, and `serve` on it recording runs under `<dir>/runs`; `extra` are more flags. */
async function serveWithRuns(
  onTestFinished: (fn: () => void | Promise<void>) => void,
  extra: string[] = [],
) {
  const h = await harness(onTestFinished);
  const config = await h.file("pool.json", threeWorkerConfig(h.server));
  const runs = join(h.dir, "runs");
  const serve = await startServe(
    ["--config", config, "--runs", runs, ...extra],
    {},
    onTestFinished,
  );
  return { h, runs, serve };
}

describe("conductor-studio serve lifecycle", { timeout: CLI_TIMEOUT_MS }, () => {
  it("refuses to bind beyond loopback without a server key", async ({ expect }) => {
    const r = await runCli(["serve", "--config", "pool.json", "--host", "0.0.0.0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Refusing to serve on 0.0.0.0 without a server key");
    expect(r.stderr).toContain("--api-key-env NAME");
  });

  it("on SIGINT stops accepting, finishes the run in flight, records it and exits 0", async ({
    expect,
    onTestFinished,
  }) => {
    const { h, runs, serve } = await serveWithRuns(onTestFinished);
    const reached = holdChecker(h, 400);
    const client = serve.client();
    const inFlight = client.chat.completions.create(ask());
    await reached;
    serve.child.kill("SIGINT");
    await serve.waitForLine(/SIGINT: no new requests/);
    const late = await serve
      .client()
      .chat.completions.create(ask())
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(Error); // refused: the port is closed (or a 503 on a kept-alive socket)
    const r = await inFlight;
    expect(r.choices[0]?.message.content).toBe(CHECKED);
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toMatch(/\[serve\] stopped\n$/);
    const records = await readRuns(runs);
    expect(records.map((l) => [l.run.status, l.served.http_status])).toEqual([["done", 200]]);
  });

  it("past the grace period cancels the run in flight, answers 503 and records it", async ({
    expect,
    onTestFinished,
  }) => {
    const { h, runs, serve } = await serveWithRuns(onTestFinished, ["--grace-ms", "50"]);
    const reached = holdChecker(h, 10_000);
    const inFlight = serve
      .client()
      .chat.completions.create(ask())
      .catch((e: unknown) => e);
    await reached;
    serve.child.kill("SIGTERM");
    expect(await inFlight).toMatchObject({ status: 503, code: "server_shutdown" });
    expect(await serve.exited).toBe(0);
    const [line] = await readRuns(runs);
    expect(line?.served.http_status).toBe(503);
    expect(line?.run).toMatchObject({ status: "cancelled", endReason: "cancelled" });
    expect(line?.run.rounds[0]?.steps[2]?.status).toBe("cancelled");
  });
});
