// What the command line reads and how it ends: stdin for `parse -` and `run --question -`, config
// keys it does not know, a byte-order mark, caps on grammar, exit codes, EPIPE, no stack traces.
// Reading a real stdin pipe and EPIPE are checked on a child process (runCli); the rest runs main
// in this process (runMain).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  cliIt,
  CHECKED,
  CLI_TIMEOUT_MS,
  QUESTION,
  chatRequests,
  memoryIo,
  promptText,
  readExport,
  runCli,
  runMain,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import { main } from "./main.ts";

const PLAN = 'model_id = [1]\nsubtasks = ["Solve it."]\naccess_list = [[]]';

async function runWith(h: Harness, config: unknown, extra: string[] = [], stdin?: string) {
  const path = await h.file("pool.json", config);
  return runMain(["run", "--config", path, "--question", QUESTION, ...extra], { stdin });
}

describe("stdin", { timeout: CLI_TIMEOUT_MS }, () => {
  it("parse - reads stdin, like parse with no FILE", async ({ expect }) => {
    const r = await runCli(["parse", "--workers", "2", "-"], { stdin: PLAN });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"ok":true,"steps":[{"worker":1,"subtask":"Solve it.","access":[]}]}\n');
  });

  cliIt('run --question - sends the question read from stdin, not "-"', async ({ expect, h }) => {
    scriptAttemptsThenCheck(h.server);
    const path = await h.file("pool.json", threeWorkerConfig(h.server));
    const r = await runMain(["run", "--config", path, "--question", "-"], {
      stdin: `${QUESTION}\n`,
    });
    expect(r.code).toBe(0);
    expect(readExport(r.stdout).run.question).toBe(`${QUESTION}\n`);
    expect(promptText(chatRequests(h.server, "conductor-7b")[0])).toContain(QUESTION);
    expect(promptText(chatRequests(h.server, "conductor-7b")[0])).not.toMatch(
      /USER QUESTION:\s*-\s*END/,
    );
  });

  cliIt("run --question - with empty stdin exits 2 and calls nothing", async ({ expect, h }) => {
    const path = await h.file("pool.json", threeWorkerConfig(h.server));
    const r = await runMain(["run", "--config", path, "--question", "-"], { stdin: " \n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("stdin held no question.");
    expect(h.server.requests).toHaveLength(0);
  });
});

describe("config mistakes", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "an unknown key is a warning naming the closest known key, and the run goes on",
    async ({ expect, h }) => {
      scriptAttemptsThenCheck(h.server);
      const config = threeWorkerConfig(h.server, { maxStep: 3 });
      config.workers[0] = { ...config.workers[0]!, temprature: 0.5 } as (typeof config.workers)[0];
      const r = await runWith(h, config);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /^Warning: .*pool\.json: unknown key "workers\.0\.temprature" \(did you mean "temperature"\?\); unknown key "maxStep" \(did you mean "maxSteps"\?\); ignored \(--strict refuses it\)\.$/m,
      );
    },
  );

  cliIt("--strict refuses it before any call", async ({ expect, h }) => {
    const r = await runWith(h, threeWorkerConfig(h.server, { maxStep: 3 }), ["--strict"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown key "maxStep" (did you mean "maxSteps"?). Fix the key');
    expect(h.server.requests).toHaveLength(0);
  });

  cliIt("a byte-order mark at the start of the config is accepted", async ({ expect, h }) => {
    scriptAttemptsThenCheck(h.server);
    const r = await runWith(h, `\uFEFF${JSON.stringify(threeWorkerConfig(h.server))}`);
    expect(r.stderr).not.toContain("invalid");
    expect(r.code).toBe(0);
    expect(readExport(r.stdout).run.answer).toBe(CHECKED);
  });
});

describe("run's output path", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "--out naming the config file is refused; the config is untouched",
    async ({ expect, h }) => {
      const config = JSON.stringify(threeWorkerConfig(h.server));
      const path = await h.file("pool.json", config);
      const r = await runMain(["run", "--config", path, "--question", QUESTION, "--out", path]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        "--out is the config file; choose another path for the run record.",
      );
      expect(await readFile(path, "utf8")).toBe(config);
      expect(h.server.requests).toHaveLength(0);
    },
  );
});

describe("serve reads the config the same way", () => {
  cliIt("--strict refuses an unknown key before listening", async ({ expect, h }) => {
    const path = await h.file("pool.json", threeWorkerConfig(h.server, { rouns: 1 }));
    const { out, io } = memoryIo();
    expect(await main(["serve", "--config", path, "--port", "0", "--strict"], io)).toBe(2);
    expect(out.stderr).toContain('unknown key "rouns" (did you mean "rounds"?). Fix the key');
    expect(out.stderr).not.toContain("listening");
  });
});

describe("grammar and parse limits", { timeout: CLI_TIMEOUT_MS }, () => {
  it("grammar --max-steps past the cap exits 2 at once, naming the cap", async ({ expect }) => {
    const r = await runMain(["grammar", "--workers", "7", "--max-steps", "100000"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^--max-steps must be at most 20 \(.*\), got 100000\.$/m);
    expect(r.stdout).toBe("");
  });

  it.for([["parse"], ["grammar", "--max-steps", "2"]])(
    "--workers 0 is refused the same way by %s",
    async (args, { expect }) => {
      const r = await runMain([...args, "--workers", "0"], { stdin: PLAN });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^--workers must be an integer from 1 to 1000, got "0"\.$/m);
    },
  );
});

describe("exit codes and endings", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt("an unreachable Conductor exits 4, not 2 (invalid config)", async ({ expect, h }) => {
    const config = threeWorkerConfig(h.server, { retry: { maxAttempts: 1 } });
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    const r = await runWith(h, {
      ...config,
      conductor: { ...config.conductor, baseURL: "http://127.0.0.1:9/v1" },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^\[round 1\] plan failed: The endpoint could not be reached/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("a reader that closes the pipe early (| head) ends the command quietly", async ({
    expect,
  }) => {
    const r = await runCli(["grammar", "--workers", "7", "--max-steps", "20"], {
      onSpawn: (child) => child.stdout?.destroy(),
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  cliIt(
    "on a terminal, run shows the answer and one line of totals on stderr",
    async ({ expect, h }) => {
      scriptAttemptsThenCheck(h.server);
      const path = await h.file("pool.json", threeWorkerConfig(h.server));
      const out = join(h.dir, "run.json");
      const { out: written, io } = memoryIo({ tty: true });
      const code = await main(["run", "--config", path, "--question", QUESTION, "--out", out], io);
      expect(code).toBe(0);
      expect(written.stdout).toBe("");
      expect(written.stderr).toContain(
        `\nAnswer:\n${CHECKED}\n\nTotals: 1670 tokens (1430 in, 240 out), 4 calls, $0.0021`,
      );
      expect(readExport(await readFile(out, "utf8")).run.answer).toBe(CHECKED);
    },
  );

  it("a bug is one line with exit 70, the stack only with CONDUCTOR_STUDIO_DEBUG", async ({
    expect,
  }) => {
    const { internalError } = await import("./main.ts");
    const quiet = memoryIo();
    expect(internalError(new Error("boom"), quiet.io)).toBe(70);
    expect(quiet.out.stderr).toBe(
      "conductor-studio: internal error: boom\nThis is a bug; please report it with the command you ran (CONDUCTOR_STUDIO_DEBUG=1 shows the stack).\n",
    );
    const debug = memoryIo({ env: { CONDUCTOR_STUDIO_DEBUG: "1" } });
    internalError(new Error("boom"), debug.io);
    expect(debug.out.stderr).toMatch(/internal error: boom\nError: boom\n\s+at /);
  });
});
