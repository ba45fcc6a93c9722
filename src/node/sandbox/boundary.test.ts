// The code sandbox's boundary, tested below the interpreter: the test-only escape hook runs an
// answer as a program that got out of Python would run (escape-payload.ts), through
// `conductor-studio eval --scorer code` (a child process, with a canary key in its environment)
// and through the reward runtime (in this process, the parent the sandbox would attack).
// Nothing may reach the test's listener, the CLI's signals or inspector, the host's files or the
// key, and the answers after it get their true verdicts, with a row for every item.
import { readdirSync } from "node:fs";
import { url as inspectorUrl } from "node:inspector";
import type { AddressInfo, Server } from "node:net";
import { createServer } from "node:net";
import { describe, it } from "vitest";
import { PAPER_REWARD } from "../../engine/eval/training/reward.ts";
import {
  cliIt,
  evalArgs,
  promptText,
  readEvalResults,
  runCli,
  threeWorkerConfig,
} from "../../test-support/cli/cli-harness.ts";
import { resolveConfig } from "../../cli/config.ts";
import { createRewardRuntime } from "../../cli/reward/engine.ts";
import { RewardRequestSchema } from "../../cli/reward/request.ts";
import type { EscapeTargets } from "./escape-payload.ts";
import { escapeAnswer, poisonAnswer } from "./escape-payload.ts";
import { ESCAPE_HOOK_ENV, createNodeSandbox } from "./process.ts";

const CANARY = "sk-canary-9c1f7e";
const ONE = JSON.stringify({ style: "stdio", cases: [{ input: "1 2\n", output: "3\n" }] });
const RIGHT = "```python\na, b = map(int, input().split())\nprint(a + b)\n```";
const WRONG = "```python\na, b = map(int, input().split())\nprint(a - b)\n```";
/** Asked in this order; the worker's answer is chosen by the task's name in the prompt. */
const TASKS = ["escape", "poison", "right-1", "wrong-1", "right-2", "wrong-2", "ansi"] as const;
const EXPECTED = {
  "right-1": true,
  "wrong-1": false,
  "right-2": true,
  "wrong-2": false,
  ansi: false,
};
/** An exception message that would set the terminal's title and erase the line, if obeyed. */
const ANSI = "```python\nraise ValueError('\\x1b]0;pwned\\x07\\x1b[2Kgone')\n```";

function reply(prompt: string, t: EscapeTargets): string {
  const task = TASKS.find((k) => prompt.includes(`Task ${k}:`));
  if (task === "escape") return escapeAnswer(t);
  if (task === "poison") return poisonAnswer();
  if (task === "ansi") return ANSI;
  return task?.startsWith("right") ? RIGHT : WRONG;
}

async function listener(): Promise<{ server: Server; port: number; heard: () => number }> {
  let heard = 0;
  const server = createServer((s) => {
    heard += 1;
    s.destroy();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, port: (server.address() as AddressInfo).port, heard: () => heard };
}

describe("the code sandbox's boundary", { timeout: 150_000 }, () => {
  cliIt(
    "eval --scorer code: an escaped answer reaches nothing, and every later verdict is true",
    async ({ expect, h, onTestFinished }) => {
      const tcp = await listener();
      onTestFinished(() => void tcp.server.close());
      let pid = 0;
      h.server.setDefault("solver-a", (body) =>
        reply(promptText({ headers: {}, body }), {
          port: tcp.port,
          pid,
          dir: h.dir,
          canary: CANARY,
        }),
      );
      const config = await h.file(
        "pool.json",
        threeWorkerConfig(h.server, { retry: { maxAttempts: 1 } }, { a: "CANARY_KEY" }),
      );
      const rows = TASKS.map((k) =>
        JSON.stringify({ id: k, question: `Task ${k}: add`, tests: ONE }),
      );
      const dataset = await h.file("code.jsonl", rows.join("\n"));
      const out = `${h.dir}/results.jsonl`;
      const r = await runCli(
        evalArgs({ config, dataset, out }, "--strategies", "single:Solver A", "--concurrency", "1"),
        {
          timeoutMs: 120_000,
          env: { CANARY_KEY: CANARY, VITEST: "true", [ESCAPE_HOOK_ENV]: "1" },
          onSpawn: (child) => (pid = child.pid ?? 0),
        },
      );
      // Alive to the end (no SIGKILL), its inspector never opened (no SIGUSR1, no _debugProcess).
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/Debugger listening/);
      // The program's escape sequences are shown, not sent raw to the terminal.
      expect(r.stderr).toContain("ValueError: \\x1b]0;pwned\\x07\\x1b[2Kgone");
      expect(r.stderr).not.toContain("\x1b");
      expect(tcp.heard()).toBe(0);
      expect(readdirSync(h.dir)).not.toContain("escaped.txt");
      const results = await readEvalResults(out);
      expect(results.map((x) => x.item).sort()).toEqual([...TASKS].sort());
      // The hook ran: the escaped answer reported what it tried, and found no key.
      const escaped = results.find((x) => x.item === "escape");
      expect(escaped?.code?.firstFailure?.actual).toMatch(/^escape-ran connect=PermissionError /);
      // the CLI's pid is not in the sandbox's pid namespace, and the answer may signal only itself
      expect(escaped?.code?.firstFailure?.actual).toMatch(/ usr1=PermissionError /);
      expect(escaped?.code?.firstFailure?.actual).toMatch(
        / file=\w+Error canary=False fork=OSError /,
      );
      const verdicts = Object.fromEntries(
        results.filter((x) => x.item in EXPECTED).map((x) => [x.item, x.correct]),
      );
      expect(verdicts).toEqual(EXPECTED);
    },
  );

  cliIt(
    "reward: the service's process survives an escaped answer, and later rewards are true",
    async ({ expect, h, onTestFinished }) => {
      const tcp = await listener();
      onTestFinished(() => void tcp.server.close());
      process.env[ESCAPE_HOOK_ENV] = "1";
      process.env.CANARY_KEY = CANARY;
      onTestFinished(() => {
        delete process.env[ESCAPE_HOOK_ENV];
        delete process.env.CANARY_KEY;
      });
      const targets = { port: tcp.port, pid: process.pid, dir: h.dir, canary: CANARY };
      h.server.setDefault("solver-a", (body) => reply(promptText({ headers: {}, body }), targets));
      const resolved = resolveConfig(JSON.stringify(threeWorkerConfig(h.server)), {});
      if (!resolved.ok) throw new Error(resolved.message);
      const runtime = createRewardRuntime(resolved, {
        concurrency: 1,
        scorer: "code",
        codeSandbox: () => Promise.resolve(createNodeSandbox()),
      });
      onTestFinished(() => runtime.dispose());
      const plan = 'model_id = [0]\nsubtasks = ["Write the program."]\naccess_list = [[]]';
      const batch = async (tasks: readonly string[]) =>
        runtime.scoreBatch(
          RewardRequestSchema.parse({
            items: tasks.map((k) => ({
              id: k,
              question: `Task ${k}: add`,
              completion: plan,
              reference: null,
              tests: JSON.parse(ONE) as unknown,
            })),
          }),
          PAPER_REWARD,
          new AbortController().signal,
        );
      const first = await batch(TASKS.slice(0, 2));
      expect(first).toHaveLength(2);
      const later = await batch(TASKS.slice(2));
      expect(Object.fromEntries(later.map((x) => [x.id, x.correct]))).toEqual(EXPECTED);
      expect(inspectorUrl()).toBeUndefined();
      expect(tcp.heard()).toBe(0);
      expect(readdirSync(h.dir)).not.toContain("escaped.txt");
    },
  );

  cliIt(
    "with no confinement, eval refuses before any call, naming the one flag that runs anyway",
    async ({ expect, h }) => {
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const dataset = await h.file(
        "code.jsonl",
        JSON.stringify({ id: "a", question: "q", tests: ONE }),
      );
      // no bubblewrap on this PATH
      const r = await runCli(
        evalArgs({ config, dataset, out: `${h.dir}/r.jsonl` }, "--scorer", "code"),
        {
          env: { PATH: h.dir },
        },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/bubblewrap \(bwrap\) is not installed.*Pass --unconfined-code/);
      expect(h.server.requests.filter((q) => q.path === "/v1/chat/completions")).toEqual([]);
    },
  );

  it("the escape hook is refused outside the tests", ({ expect, onTestFinished }) => {
    const vitest = process.env.VITEST;
    process.env[ESCAPE_HOOK_ENV] = "1";
    delete process.env.VITEST;
    onTestFinished(() => {
      process.env.VITEST = vitest;
      delete process.env[ESCAPE_HOOK_ENV];
    });
    expect(() => createNodeSandbox()).toThrow(/test-only switch/);
  });
});
