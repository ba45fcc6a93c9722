// Test support for `reward`: the real bin as a child process, resolved once it listens, and a
// small client for its two routes. Not a test file.
import { spawnService } from "./cli-harness.ts";

export interface RewardProcess {
  url: string;
  stderr(): string;
  exited: Promise<number | null>;
  /** POST /v1/rewards with `body`; resolves with the status and the parsed JSON. */
  post(body: unknown, key?: string): Promise<{ status: number; json: unknown }>;
  health(): Promise<{ status: number; json: unknown }>;
  stop(): Promise<number | null>;
}

/** Starts `conductor-studio reward --port 0 ...args`; the child sees only PATH plus `env`. */
export async function startRewardProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<RewardProcess> {
  const { child, exited } = spawnService("reward", args, env);
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      stderr += s;
      const m = /listening on (http:\/\/\S+)\/v1\/rewards/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) =>
      reject(new Error(`reward exited (${code}) before listening:\n${stderr}`)),
    );
  });
  const call = async (path: string, init: RequestInit) => {
    const res = await fetch(`${url}${path}`, init);
    return { status: res.status, json: (await res.json()) as unknown };
  };
  return {
    url,
    stderr: () => stderr,
    exited,
    post: (body, key) =>
      call("/v1/rewards", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(key ? { Authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify(body),
      }),
    health: () => call("/health", {}),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
