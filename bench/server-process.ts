import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The local test server (e2e/server/main.ts) in a process of its own, so that a benchmark's client
 * does not share a core's event loop with the server answering it. Replies are per-model defaults.
 */
export async function startServerProcess(
  scenario: Record<string, { content: string; latencyMs: number }>,
): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-server-"));
  const file = join(dir, "scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "e2e/server/main.ts", "--port", "0", "--scenario", file],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      out += text;
      const ready = /READY (\S+)/.exec(out);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`the test server exited (${code}) before READY`)),
    );
  });
  return {
    baseURL: `${url}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
