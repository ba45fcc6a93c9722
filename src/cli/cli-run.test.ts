// `conductor-studio run` against the local test server over real HTTP: the happy path and keys as a
// child process (runCli), HTTP errors and retries, a bad plan, and a refinement round through main
// in this process (runMain).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import {
  cliIt,
  ANSWER_A,
  ANSWER_B,
  ATTEMPTS_THEN_CHECK,
  CHECKED,
  CLI_TIMEOUT_MS,
  QUESTION,
  chatRequests,
  harness,
  promptText,
  readExport,
  runCli,
  runMain,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";

async function runPlan(
  h: Harness,
  config: unknown,
  env: Record<string, string> = {},
  out?: string,
  run: typeof runCli = runMain,
) {
  const path = await h.file("config.json", config);
  const args = ["run", "--config", path, "--question", QUESTION, ...(out ? ["--out", out] : [])];
  return run(args, { env });
}

const COND = "sk-test-conductor-9f2c71d4e8";
const KEY_A = "sk-test-solver-a-3b8e05aa41";
const KEY_B = "sk-test-solver-b-c6d19f7702";
const KEY_ENV = { conductor: "CS_CONDUCTOR_KEY", a: "CS_SOLVER_A_KEY", b: "CS_SOLVER_B_KEY" };
const ENV = { CS_CONDUCTOR_KEY: COND, CS_SOLVER_A_KEY: KEY_A, CS_SOLVER_B_KEY: KEY_B };
const SECRETS = [COND, KEY_A, KEY_B];

describe("conductor-studio run", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "plans, runs two attempts and a checker, and prints the export to stdout",
    async ({ expect, h }) => {
      scriptAttemptsThenCheck(h.server);
      const r = await runPlan(h, threeWorkerConfig(h.server), {}, undefined, runCli);
      // Plain words, not the record's code (no_rounds).
      expect(r.stderr).toMatch(/^\[run\] done: No refinement rounds\.$/m);
      // Not a terminal: no answer block, but one line of totals.
      expect(r.stderr).toMatch(
        /^\[run\] totals: 1670 tokens \(1430 in, 240 out\), 4 calls, \$0\.0021, \d+\.\ds$/m,
      );
      expect(r.stderr).not.toContain("Answer:");
      expect(r.code).toBe(0);

      const lines = r.stderr.split("\n");
      const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
      expect(at(/^\[round 1\] planning with the Conductor\.\.\.$/)).toBe(0);
      expect(at(/^\[round 1\] plan: 3 steps \(\d+\.\ds\)$/)).toBe(1);
      expect(at(/^\[step 1\] Solver A started$/)).toBeGreaterThan(1);
      expect(at(/^\[step 2\] Solver B started$/)).toBeGreaterThan(1);
      const doneA = at(/^\[step 1\] done: 160 tokens, \$0\.0006, \d+\.\ds$/);
      const doneB = at(/^\[step 2\] done: 140 tokens, \$0\.0001, \d+\.\ds$/);
      const checkerStart = at(/^\[step 3\] Checker started$/);
      // The checker sees "all", so it starts only after both attempts finished.
      expect(Math.min(doneA, doneB)).toBeGreaterThan(1);
      expect(checkerStart).toBeGreaterThan(Math.max(doneA, doneB));
      expect(at(/^\[step 3\] done: 320 tokens, \$0\.0012, \d+\.\ds$/)).toBeGreaterThan(
        checkerStart,
      );

      const doc = readExport(r.stdout);
      expect(doc.format).toBe("conductor-studio/run");
      expect(Number.isInteger(doc.version)).toBe(true);
      const run = doc.run;
      expect(run.question).toBe(QUESTION);
      expect(run.answer).toBe(CHECKED);
      expect(run.status).toBe("done");
      const round = run.rounds[0];
      expect(round?.plan?.raw).toBe(ATTEMPTS_THEN_CHECK);
      expect(round?.plan?.cost).toBeCloseTo(0.00015, 12); // 900 * 0.1 + 150 * 0.4, per million
      expect(round?.lists?.access_list).toEqual([[], [], "all"]);
      expect(round?.steps.map((s) => [s.workerName, s.status, s.output])).toEqual([
        ["Solver A", "done", ANSWER_A],
        ["Solver B", "done", ANSWER_B],
        ["Checker", "done", CHECKED],
      ]);
      expect(round?.steps[0]?.usage).toEqual({
        promptTokens: 120,
        completionTokens: 40,
        estimated: false,
      });
      expect(round?.steps.map((s) => s.cost)).toEqual([
        expect.closeTo(0.00064, 12), // 120 * 2 + 40 * 10
        expect.closeTo(0.0001, 12), // 110 * 0.5 + 30 * 1.5
        expect.closeTo(0.0012, 12), // 300 * 3 + 20 * 15
      ]);
      expect(run.totals).toMatchObject({ promptTokens: 1430, completionTokens: 240, calls: 4 });
      expect(run.totals.cost).toBeCloseTo(0.00209, 12);

      const checker = promptText(chatRequests(h.server, "checker")[0]);
      expect(checker).toContain(`<Agent 0 response>\n${ANSWER_A}\n</Agent 0 response>`);
      expect(checker).toContain(`<Agent 1 response>\n${ANSWER_B}\n</Agent 1 response>`);
      expect(checker).toContain(`<overall_task>\n${QUESTION}\n</overall_task>`);
      // An attempt with access [] sees no other agent.
      expect(promptText(chatRequests(h.server, "solver-a")[0])).not.toContain("<Agent ");
    },
  );

  cliIt("--out FILE writes the export there and nothing to stdout", async ({ expect, h }) => {
    scriptAttemptsThenCheck(h.server);
    const out = join(h.dir, "run.json");
    const r = await runPlan(h, threeWorkerConfig(h.server), {}, out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const doc = readExport(await readFile(out, "utf8"));
    expect(doc.run.answer).toBe(CHECKED);
    expect(doc.run.rounds[0]?.steps.every((s) => s.status === "done")).toBe(true);
  });

  cliIt("an unwritable --out path exits 2 before any call is paid for", async ({ expect, h }) => {
    scriptAttemptsThenCheck(h.server);
    const out = join(h.dir, "missing-dir", "run.json");
    const r = await runPlan(h, threeWorkerConfig(h.server), {}, out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Cannot write ${out}: the folder ${join(h.dir, "missing-dir")} does not exist. Nothing was sent to any model.`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
    expect(h.server.requests).toHaveLength(0);
  });

  it("sends each endpoint only its own key and writes no key anywhere", async ({
    expect,
    onTestFinished,
  }) => {
    // The server itself refuses a wrong key for the three keyed models.
    const keys = { "conductor-7b": COND, "solver-a": KEY_A, "solver-b": KEY_B };
    const h = await harness(onTestFinished, { keys });
    scriptAttemptsThenCheck(h.server);
    const out = join(h.dir, "run.json");
    // Decoys: the openai package would read these from the environment if the adapter let it.
    const decoys = { OPENAI_API_KEY: "sk-decoy-env-0d9a7c", OPENAI_ORG_ID: "org-decoy-1e4b" };
    const r = await runPlan(
      h,
      threeWorkerConfig(h.server, {}, KEY_ENV),
      { ...ENV, ...decoys },
      out,
      runCli, // the decoys are in the child's environment, where the openai package would look
    );
    expect(r.code).toBe(0);

    const expected = { "conductor-7b": COND, "solver-a": KEY_A, "solver-b": KEY_B, checker: null };
    for (const [model, key] of Object.entries(expected)) {
      const requests = chatRequests(h.server, model);
      expect(requests, model).toHaveLength(1);
      const headers = requests[0]?.headers ?? {};
      expect(headers.authorization, model).toBe(key === null ? undefined : `Bearer ${key}`);
      const others = [...SECRETS, ...Object.values(decoys)].filter((s) => s !== key);
      for (const other of others) expect(JSON.stringify(headers), model).not.toContain(other);
    }
    const file = await readFile(out, "utf8");
    expect(readExport(file).run.answer).toBe(CHECKED);
    for (const secret of SECRETS) {
      expect(r.stdout + r.stderr + file).not.toContain(secret);
    }
  });

  cliIt(
    "a 401 from a worker fails the run (exit 1) without showing its key",
    async ({ expect, h }) => {
      h.server.script("conductor-7b", ATTEMPTS_THEN_CHECK);
      h.server.script("solver-a", ANSWER_A);
      // Some providers echo the key they refused; the CLI must not pass it on.
      h.server.script("solver-b", {
        status: 401,
        errorMessage: `Incorrect API key provided: ${KEY_B}. Find your key in the dashboard.`,
      });
      const out = join(h.dir, "run.json");
      const r = await runPlan(h, threeWorkerConfig(h.server, {}, KEY_ENV), ENV, out);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^\[step 2\] failed: The endpoint refused the API key \(401\/403\)/m,
      );
      expect(r.stderr).toContain("Incorrect API key provided: [redacted].");
      expect(r.stderr).toMatch(/^\[run\] failed: A step failed/m);
      expect(chatRequests(h.server, "solver-b")).toHaveLength(1); // a 401 is not retried
      expect(chatRequests(h.server, "checker")).toHaveLength(0);
      const file = await readFile(out, "utf8");
      const run = readExport(file).run;
      expect(run.answer).toBeNull();
      expect(run.rounds[0]?.steps[1]?.error?.code).toBe("auth");
      for (const secret of SECRETS) {
        expect(r.stdout + r.stderr + file).not.toContain(secret);
      }
    },
  );

  cliIt(
    "retries a worker's 500 with the configured backoff and finishes",
    async ({ expect, h }) => {
      h.server.script("solver-a", { status: 500 });
      scriptAttemptsThenCheck(h.server);
      const config = threeWorkerConfig(h.server, { retry: { baseDelayMs: 1, maxDelayMs: 5 } });
      const r = await runPlan(h, config);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /^\[step 1\] The endpoint had a server error \(5xx\)\..* Retrying in 0\.0s$/m,
      );
      expect(r.stderr).toMatch(/^\[step 1\] Solver A started \(attempt 2\)$/m);
      expect(chatRequests(h.server, "solver-a")).toHaveLength(2);
      const run = readExport(r.stdout).run;
      expect(run.rounds[0]?.steps[0]).toMatchObject({
        status: "done",
        attempts: 2,
        output: ANSWER_A,
      });
      expect(run.answer).toBe(CHECKED);
    },
  );

  cliIt("honours Retry-After: 0 on a 429 instead of the default backoff", async ({ expect, h }) => {
    h.server.script("solver-b", { status: 429, retryAfter: "0" });
    scriptAttemptsThenCheck(h.server);
    // No retry override: without Retry-After the default backoff would wait 0.5 s to 1 s.
    const r = await runPlan(h, threeWorkerConfig(h.server));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^\[step 2\] The endpoint is rate limiting requests \(429\)\..* Retrying in 0\.0s$/m,
    );
    expect(chatRequests(h.server, "solver-b")).toHaveLength(2);
    expect(readExport(r.stdout).run.rounds[0]?.steps[1]?.attempts).toBe(2);
  });

  cliIt(
    "an unparseable plan is asked for once more, then exits 3, showing the error and keeping both texts",
    async ({ expect, h }) => {
      // Cut off by the token limit in the middle of the subtasks list.
      const raw = `Two independent attempts, then a check.
model_id = [0, 1, 2]
subtasks = ["Solve it with the formula.", "Solve it by pairing terms.", "Compare both answers and give the`;
      h.server.script("conductor-7b", raw, raw);
      const r = await runPlan(h, threeWorkerConfig(h.server));
      expect(r.code).toBe(3); // the plan, not the config (2) or an unreachable endpoint (4)
      expect(r.stderr).toMatch(
        /^\[round 1\] plan failed: A list in the Conductor's output could not be read/m,
      );
      const round = readExport(r.stdout).run.rounds[0];
      expect(round?.plan?.raw).toBe(raw);
      expect(round?.plan?.error?.code).toBe("unparseable_list");
      expect(round?.plan?.rejected).toMatchObject([{ raw, error: { code: "unparseable_list" } }]);
      expect(round?.steps).toEqual([]);
      expect(h.server.requests.filter((q) => q.path === "/v1/chat/completions")).toHaveLength(2);
    },
  );

  cliIt(
    'with "rounds": 1 the Conductor can accept the answer with three empty lists',
    async ({ expect, h }) => {
      const plan = `An easy sum: one strong model is enough.
model_id = [0]
subtasks = ["Compute the sum and state the final number."]
access_list = [[]]`;
      const accept = `The answer 5050 is right and well justified; nothing to fix.
model_id = []
subtasks = []
access_list = []`;
      h.server.script("conductor-7b", plan, accept);
      h.server.script("solver-a", ANSWER_A);
      const r = await runPlan(h, threeWorkerConfig(h.server, { rounds: 1 }));
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^\[round 2\] the Conductor accepted the answer$/m);
      const run = readExport(r.stdout).run;
      expect(run.endReason).toBe("accepted");
      expect(run.answer).toBe(ANSWER_A);
      expect(run.rounds.map((rd) => rd.accepted)).toEqual([false, true]);
      const conductorCalls = chatRequests(h.server, "conductor-7b");
      expect(conductorCalls).toHaveLength(2);
      // The second call continues the conversation: its own plan, then the answer to judge.
      expect(promptText(conductorCalls[1])).toContain(plan);
      expect(promptText(conductorCalls[1])).toContain(ANSWER_A);
      expect(chatRequests(h.server, "solver-a")).toHaveLength(1);
    },
  );
});
