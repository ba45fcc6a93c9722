// The real CLI: usage, `parse`, and config errors of `run`, one test of each as a child process
// (runCli: exit code, pipes, environment) and the rest through main in this process (runMain). The
// runs themselves are in cli-run.test.ts.
import { describe, it } from "vitest";
import { buildPlanGrammar } from "../engine/conductor/grammar.ts";
import { DEFAULT_OPENING } from "../engine/conductor/prompt.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  cliIt,
  CLI_TIMEOUT_MS,
  QUESTION,
  runCli,
  runMain,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";

const PLAN = `Two drafts, then a merge that reads both.
model_id = [2, 0, 1]
subtasks = ["Draft a proof sketch.", "Draft a second, independent proof.", "Merge the two drafts into one proof."]
access_list = [[], ["all"], [0, 1]]`;

const PLAN_JSON =
  '{"ok":true,"steps":[' +
  '{"worker":2,"subtask":"Draft a proof sketch.","access":[]},' +
  '{"worker":0,"subtask":"Draft a second, independent proof.","access":"all"},' +
  '{"worker":1,"subtask":"Merge the two drafts into one proof.","access":[0,1]}]}\n';

const EMPTY_LISTS = "The answer holds up.\nmodel_id = []\nsubtasks = []\naccess_list = []\n";

describe("conductor-studio usage", { timeout: CLI_TIMEOUT_MS }, () => {
  it("--help exits 0 and lists every command; COMMAND --help gives its usage", async ({
    expect,
  }) => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    for (const name of ["eval", "grammar", "parse", "run", "serve"])
      expect(r.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    const parse = await runMain(["parse", "--help"]);
    expect(parse.code).toBe(0);
    expect(parse.stdout).toMatch(/^Usage: conductor-studio parse --workers N/m);
    const run = await runMain(["run", "--help"]);
    expect(run.stdout).toMatch(/^Usage: conductor-studio run --config FILE --question TEXT/m);
  });

  it("an unknown command exits 2 with a message on stderr", async ({ expect }) => {
    const r = await runMain(["plan"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown command "plan"');
    expect(r.stdout).toBe("");
  });

  it("parse without --workers exits 2 with a message on stderr", async ({ expect }) => {
    const r = await runMain(["parse"], { stdin: PLAN });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--workers is required");
    expect(r.stdout).toBe("");
  });
});

describe("conductor-studio parse", { timeout: CLI_TIMEOUT_MS }, () => {
  it("reads stdin and prints the steps as one exact JSON line", async ({ expect }) => {
    const r = await runCli(["parse", "--workers", "3"], { stdin: PLAN });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(PLAN_JSON);
  });

  cliIt("reads FILE the same way", async ({ expect, h }) => {
    const path = await h.file("plan.txt", PLAN);
    const r = await runMain(["parse", "--workers", "3", path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(PLAN_JSON);
  });

  it("an unreadable FILE exits 2 with a message, not a stack trace", async ({ expect }) => {
    const r = await runMain(["parse", "--workers", "3", "/nonexistent/conductor-plan.txt"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Cannot read /nonexistent/conductor-plan.txt");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });

  it("a worker id out of range exits 1 with bad_worker", async ({ expect }) => {
    const text =
      'model_id = [0, 5]\nsubtasks = ["Solve it.", "Check it."]\naccess_list = [[], ["all"]]';
    const r = await runMain(["parse", "--workers", "2"], { stdin: text });
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines).toHaveLength(2); // one line, then the final newline
    expect(Object.keys(JSON.parse(lines[0] ?? "") as object)).toEqual(["ok", "code", "message"]);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      ok: false,
      code: "bad_worker",
      message: expect.stringContaining("model id 5") as unknown,
    });
  });

  it("more steps than --max-steps exits 1 with too_many_steps", async ({ expect }) => {
    const r = await runMain(["parse", "--workers", "3", "--max-steps", "2"], { stdin: PLAN });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, code: "too_many_steps" });
  });

  it("--round 1 accepts three empty lists", async ({ expect }) => {
    const r = await runMain(["parse", "--workers", "3", "--round", "1"], { stdin: EMPTY_LISTS });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"ok":true,"steps":[]}\n');
  });

  it("round 0 rejects three empty lists with no_steps", async ({ expect }) => {
    const r = await runMain(["parse", "--workers", "3"], { stdin: EMPTY_LISTS });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, code: "no_steps" });
  });
});

describe("conductor-studio run: invalid config", { timeout: CLI_TIMEOUT_MS }, () => {
  async function runWithConfig(h: Harness, config: unknown) {
    const path = await h.file("config.json", config);
    return runMain(["run", "--config", path, "--question", QUESTION]);
  }

  cliIt("bad JSON exits 2 and says so", async ({ expect, h }) => {
    const r = await runWithConfig(h, '{"conductor": {"baseURL": ');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("The configuration is invalid: not valid JSON");
    expect(r.stdout).toBe("");
  });

  cliIt("missing workers exits 2 naming the field", async ({ expect, h }) => {
    const { conductor } = threeWorkerConfig(h.server);
    const r = await runWithConfig(h, { conductor });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/The configuration is invalid: workers: /);
  });

  cliIt("a baseURL that is not a URL exits 2 naming the field", async ({ expect, h }) => {
    const config = threeWorkerConfig(h.server);
    const workers = config.workers.map((w, i) =>
      i === 1 ? { ...w, baseURL: "localhost:8000" } : w,
    );
    const r = await runWithConfig(h, { ...config, workers });
    expect(r.code).toBe(2);
    // A bare host:port is the usual slip; WHATWG URL parsing alone would take "localhost:" as a scheme.
    expect(r.stderr).toContain(
      "The configuration is invalid: workers.1.baseURL: must be an http:// or https:// URL",
    );
    expect(h.server.requests).toHaveLength(0);
  });

  cliIt(
    "a missing key variable exits 2 naming it, calls nothing and shows no key",
    async ({ expect, h }) => {
      const secret = "sk-conductor-present-5b1e9f";
      const config = threeWorkerConfig(
        h.server,
        {},
        { conductor: "CS_COND_KEY", b: "CS_UNSET_KEY" },
      );
      const path = await h.file("config.json", config);
      const r = await runCli(["run", "--config", path, "--question", QUESTION], {
        env: { CS_COND_KEY: secret },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("An API key environment variable is not set: CS_UNSET_KEY");
      expect(r.stderr).not.toContain("CS_COND_KEY");
      expect(r.stderr + r.stdout).not.toContain(secret);
      expect(h.server.requests).toHaveLength(0);
    },
  );

  it("an unreadable config path exits 2", async ({ expect }) => {
    const args = ["run", "--config", "/nonexistent/conductor.json", "--question", QUESTION];
    const r = await runMain(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Cannot read the config file /nonexistent/conductor.json");
    expect(r.stdout).toBe("");
  });
});

describe("conductor-studio grammar", { timeout: CLI_TIMEOUT_MS }, () => {
  it("prints the plan grammar for the pool and the step cap, the opening as its prefix", async ({
    expect,
  }) => {
    const r = await runCli(["grammar", "--workers", "3", "--max-steps", "2"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      buildPlanGrammar({ workers: 3, maxSteps: 2, round: 0, opening: DEFAULT_OPENING }),
    );
    expect(r.stdout).toContain(`root ::= "${DEFAULT_OPENING}" reasoning`);
    expect(r.stdout).toContain('id ::= "0" | "1" | "2"\n');
    expect(r.stdout).not.toContain("plan_3");
    expect(r.stdout).not.toMatch(/^plans ::= .*keep/m);
  });

  it("--round 1 allows the empty lists and an empty --opening drops the prefix", async ({
    expect,
  }) => {
    const r = await runMain([
      "grammar",
      "--workers",
      "1",
      "--max-steps",
      "1",
      "--round",
      "1",
      "--opening",
      "",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^root ::= reasoning /m);
    expect(r.stdout).toMatch(/^plans ::= plan_1 \| keep$/m);
  });

  it("without --max-steps exits 2 with a message", async ({ expect }) => {
    const r = await runMain(["grammar", "--workers", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-steps is required");
  });
});
