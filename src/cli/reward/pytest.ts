// `npm run test:py` (a script, not a vitest file): the Python adapters' tests (train/) against the real reward service, which
// runs on the local test server standing in for every worker. Starts both, runs
// `python3 -m unittest`, and exits with its code.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer } from "../../../e2e/server/server.ts";
import type { ChatBody } from "../../../e2e/server/server.ts";
import { resolveConfig } from "../config.ts";
import { parseRewardArgs } from "./args.ts";
import { startReward } from "./server.ts";

const KEY = "sk-reward-py-test-7a9e0d2c41";

/** N in "What is N plus one?" as the worker saw it. */
function asked(body: ChatBody): number {
  const text = body.messages
    .map((m) => (typeof m.content === "string" ? m.content : ""))
    .join("\n");
  return Number(/What is (\d+) plus one\?/.exec(text)?.[1] ?? NaN);
}

const server = await startTestServer();
const usage = { prompt_tokens: 200, completion_tokens: 50 };
server.setDefault("solver", (b) => ({
  content: `It is ${asked(b) + 1}.\nAnswer: ${asked(b) + 1}`,
  usage,
}));
server.setDefault("wrong", { content: "Answer: 0", usage });
server.setDefault("broken", { status: 401, errorMessage: "Incorrect API key provided" });
const dir = await mkdtemp(join(tmpdir(), "conductor-reward-py-"));
const config = join(dir, "pool.json");
const entry = (model: string) => ({
  baseURL: server.baseURL,
  model,
  price: { input: 1, output: 4 },
});
await writeFile(
  config,
  JSON.stringify({
    conductor: entry("conductor-7b"),
    workers: [
      { name: "Solver", ...entry("solver") },
      { name: "Wrong", ...entry("wrong") },
      { name: "Broken", ...entry("broken") },
    ],
  }),
);
const resolved = resolveConfig(await readFile(config, "utf8"), {});
if (!resolved.ok) throw new Error(resolved.message);
const quiet = () => undefined;
const open = await startReward(
  parseRewardArgs(["--config", config, "--port", "0", "--cache", join(dir, "cache")], {}),
  resolved,
  quiet,
);
// A second replica beside `open`, for the async adapters' choice among CONDUCTOR_REWARD_URLS.
const second = await startReward(
  parseRewardArgs(["--config", config, "--port", "0"], {}),
  resolved,
  quiet,
);
const keyed = await startReward(
  parseRewardArgs(["--config", config, "--port", "0", "--api-key-env", "KEY"], { KEY }),
  resolved,
  quiet,
);
const code = await new Promise<number>((resolve) => {
  const child = spawn(
    "python3",
    ["-m", "unittest", "discover", "-s", "train", "-p", "test_*.py", "-v"],
    {
      stdio: "inherit",
      env: {
        PATH: process.env.PATH ?? "",
        CONDUCTOR_REWARD_URL: open.url,
        CONDUCTOR_REWARD_KEYED_URL: keyed.url,
        CONDUCTOR_REWARD_REPLICAS: `${open.url},${second.url}`,
        CONDUCTOR_REWARD_TEST_KEY: KEY,
      },
    },
  );
  child.on("close", (c) => resolve(c ?? 1));
  child.on("error", (e) => {
    console.error(`Cannot run python3 for the adapters' tests: ${e.message}`);
    resolve(1);
  });
});
await Promise.all([open.shutdown(0), second.shutdown(0), keyed.shutdown(0)]);
await server.close();
await rm(dir, { recursive: true, force: true });
process.exit(code);
