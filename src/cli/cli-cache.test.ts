// `--cache DIR` on `eval` and `serve`: a repeated request never reaches the provider again, and
// what was answered from the cache is marked and costs nothing. A re-run from the cache is checked
// across child processes (runCli, startServe: the cache is on disk when a process ends); resuming
// and the option check run main in this process (runMain).
import { join } from "node:path";
import { describe, it } from "vitest";
import type { TestServer } from "../../e2e/server/server.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  cliIt,
  CLI_TIMEOUT_MS,
  CHECKED,
  ask,
  evalArgs,
  readEvalResults,
  runCli,
  runMain,
  scriptAttemptsThenCheck,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import { readRuns, startServe } from "../test-support/cli/serve-child.ts";

const PLAN = `One solver, then the checker answers.
model_id = [0, 2]
subtasks = ["Work it out.", "Check it and give the final answer."]
access_list = [[], ["all"]]`;
const USAGE = { prompt_tokens: 1000, completion_tokens: 1000 };

function script(server: TestServer) {
  server.setDefault("conductor-7b", { content: PLAN, usage: USAGE });
  server.setDefault("solver-a", { content: "It is 4.\nAnswer: 4", usage: USAGE });
  server.setDefault("solver-b", { content: "Answer: 4", usage: USAGE });
  server.setDefault("checker", { content: "Checked.\nAnswer: 4", usage: USAGE });
}

/** The three-worker pool, two questions and a cache directory in `h`'s folder. */
async function twoQuestions(h: Harness) {
  const config = await h.file("pool.json", threeWorkerConfig(h.server));
  const dataset = await h.file(
    "q.jsonl",
    '{"id":"q1","question":"What is 2+2?","answer":"4"}\n{"id":"q2","question":"What is 3+1?","answer":"4"}\n',
  );
  return { files: (out: string) => ({ config, dataset, out }), cache: join(h.dir, "cache") };
}

const chatCalls = (server: TestServer) =>
  server.requests.filter((r) => r.path === "/v1/chat/completions").length;

describe("eval --cache", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt(
    "re-runs an evaluation from the cache with no upstream call, marked and at no cost",
    async ({ expect, h }) => {
      script(h.server);
      const { files, cache } = await twoQuestions(h);
      const first = join(h.dir, "first.jsonl");
      const run1 = await runCli(
        evalArgs(files(first), "--strategies", "conductor,single:Solver B", "--cache", cache),
      );
      expect(run1.code, run1.stderr).toBe(0);
      const paid = chatCalls(h.server);
      expect(paid).toBe(2 * 3 + 2);
      expect(run1.stderr).toMatch(/cache \(read-write\): 0 hits, 8 misses/);
      const before = await readEvalResults(first);
      expect(before.every((r) => r.cost > 0 && r.cachedCalls === undefined)).toBe(true);

      const second = join(h.dir, "second.jsonl");
      const run2 = await runCli(
        evalArgs(
          files(second),
          "--strategies",
          "conductor,single:Solver B",
          "--cache",
          cache,
          "--cache-mode",
          "read-only",
        ),
      );
      expect(run2.code, run2.stderr).toBe(0);
      expect(chatCalls(h.server)).toBe(paid);
      expect(run2.stderr).toMatch(/cache \(read-only\): 8 hits, 0 misses, \$0\.\d{4} saved/);
      const after = await readEvalResults(second);
      const row = (r: (typeof after)[number], cost: number, cached: number | undefined) =>
        JSON.stringify([r.item, r.strategy, r.correct, cost, cached, r.calls]);
      expect(after.map((r) => row(r, r.cost, r.cachedCalls)).sort()).toEqual(
        before.map((r) => row(r, 0, r.calls)).sort(),
      );
      // Each result saved what the first run paid for it, and the summary table says so.
      const paidFor = new Map(before.map((r) => [`${r.item}/${r.strategy}`, r.cost]));
      for (const r of after)
        expect(r.savedCost).toBeCloseTo(paidFor.get(`${r.item}/${r.strategy}`)!, 12);
      expect(run2.stdout).toMatch(/calls\/q\s+cached\s+saved \$/);
      expect(run1.stdout).not.toMatch(/saved \$/);
    },
  );

  cliIt(
    "resumes an evaluation with each task's own calls, and a re-run of it makes none",
    {
      timeout: CLI_TIMEOUT_MS * 3,
    },
    async ({ expect, h }) => {
      // Every answer is new, so an answer given to two tasks shows.
      let n = 0;
      for (const model of ["solver-a", "solver-b", "checker"])
        h.server.setDefault(model, () => ({ content: `Take ${n++}.\nAnswer: 4`, usage: USAGE }));
      const { files, cache } = await twoQuestions(h);
      const out = join(h.dir, "out.jsonl");
      // Session 1 got as far as single:Solver A, once per item.
      const run1 = await runMain(
        evalArgs(files(out), "--strategies", "single:Solver A", "--cache", cache),
      );
      expect(run1.code, run1.stderr).toBe(0);
      expect(chatCalls(h.server)).toBe(2);
      // Session 2 resumes it with a second repeat and the chain, whose first step (Solver A,
      // "Solve the task.") sends word for word what single:Solver A sent: all of it is new work.
      const all = ["--strategies", "single:Solver A,chain", "--repeats", "2", "--cache", cache];
      const run2 = await runMain(evalArgs(files(out), ...all));
      expect(run2.code, run2.stderr).toBe(0);
      expect(chatCalls(h.server)).toBe(2 + 2 * 1 + 2 * 2 * 3);
      expect(run2.stderr).toMatch(/cache \(read-write\): 0 hits, 14 misses/);
      const resumed = await readEvalResults(out);
      expect(resumed).toHaveLength(8);
      // No answer went to two tasks.
      const solved = resumed.map((r) => r.answer);
      expect(new Set(solved).size).toBe(8);
      // The whole evaluation again into a new file: every task finds its own answers.
      const again = join(h.dir, "again.jsonl");
      const run3 = await runMain(evalArgs(files(again), ...all));
      expect(run3.code, run3.stderr).toBe(0);
      expect(chatCalls(h.server)).toBe(16);
      expect(run3.stderr).toMatch(/cache \(read-write\): 16 hits, 0 misses/);
      const byTask = (rs: typeof resumed) =>
        rs.map((r) => `${r.item} ${r.strategy} ${r.repeat}: ${r.answer}`).sort();
      expect(byTask(await readEvalResults(again))).toEqual(byTask(resumed));
    },
  );

  it("refuses a --cache-mode it does not know", async ({ expect }) => {
    const r = await runMain([
      "eval",
      "--config",
      "x",
      "--dataset",
      "y",
      "--out",
      "z",
      "--cache",
      "c",
      "--cache-mode",
      "sometimes",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cache-mode must be one of read-write, read-only, refresh/);
  });
});

describe("serve --cache", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt(
    "keeps repeats as samples within a process, and answers a re-run from the cache",
    async ({ expect, h, onTestFinished }) => {
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const args = [
        "--config",
        config,
        "--cache",
        join(h.dir, "cache"),
        "--runs",
        join(h.dir, "runs"),
      ];
      const session = async () => {
        const serve = await startServe(args, {}, onTestFinished);
        const client = serve.client();
        for (let i = 0; i < 2; i++) {
          scriptAttemptsThenCheck(h.server);
          const r = await client.chat.completions.create(ask());
          expect(r.choices[0]?.message.content).toBe(CHECKED);
        }
        serve.child.kill("SIGTERM");
        await serve.exited;
      };
      await session();
      // Asked twice, the same question is two samples: the Conductor and three workers each time.
      expect(chatCalls(h.server)).toBe(8);
      await session();
      expect(chatCalls(h.server)).toBe(8);
      const runs = await readRuns(join(h.dir, "runs"));
      expect(runs.map((l) => l.run.totals.cachedCalls ?? 0).sort()).toEqual([0, 0, 4, 4]);
      expect(
        runs.filter((l) => l.run.totals.cachedCalls).every((l) => l.run.totals.cost === 0),
      ).toBe(true);
    },
  );
});
