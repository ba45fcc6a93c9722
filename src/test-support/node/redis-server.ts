// Test support: a real `redis-server` (Debian's) on a free ephemeral port, no persistence, stopped
// by the test that started it. Not a test file.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM to the process this started) and waits for it to exit. */
  stop(): Promise<void>;
}

/** A port free now: the system's pick for a listener closed at once (redis-server needs a number). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      const port = typeof address === "object" && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (s: string) => {
      out += s;
      if (out.includes("Ready to accept connections")) resolve();
    });
    child.on("error", reject);
    void exited.then(() => reject(new Error(`redis-server exited before it was ready:\n${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
