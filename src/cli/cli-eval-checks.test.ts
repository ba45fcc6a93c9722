// `eval` checks made before money is spent (output paths, --training-data, a changed definition),
// --new, --json, strategy names, and progress on and off a terminal. Progress off a terminal is
// checked on a child process's stderr pipe (runCli); the rest runs main in this process (runMain).
import { readFile, readdir, writeFile } from "node:fs/promises";
import { describe } from "vitest";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  CLI_TIMEOUT_MS,
  cliIt,
  evalArgs,
  memoryIo,
  readEvalResults,
  runCli,
  runMain,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import {
  EVAL_USAGE,
  chatCount,
  scriptPlusOne,
  writeEvalFiles,
} from "../test-support/cli/eval-setups.ts";
import { main } from "./main.ts";

const PLAN = 'One step.\nmodel_id = [0]\nsubtasks = ["Solve it."]\naccess_list = [[]]';

/** Every model answers 4, right on both questions. */
async function setup(h: Harness) {
  scriptPlusOne(h.server, {
    "conductor-7b": PLAN,
    "solver-a": "Answer: 4",
    "solver-b": "Answer: 4",
    checker: "Answer: 4",
  });
  const items = [
    { id: "q1", question: "What is 2 plus 2?", answer: "4" },
    { id: "q2", question: "What is 3 plus 1?", answer: "4" },
  ];
  return writeEvalFiles(h, items, { datasetName: "q.jsonl" });
}

describe("eval: checks before the first call", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "refuses --training-data without the conductor strategy, writing nothing",
    async ({ expect, h }) => {
      const files = await setup(h);
      const train = `${h.dir}/train.jsonl`;
      const r = await runMain(evalArgs(files, "--strategies", "single", "--training-data", train));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        "--training-data writes the Conductor's samples, but --strategies has no conductor (single:Solver A, single:Solver B, single:Checker).",
      );
      expect(chatCount(h)).toBe(0);
      expect((await readdir(h.dir)).sort()).toEqual(["pool.json", "q.jsonl"]);
    },
  );

  cliIt.for<[string, string]>([
    ["--training-data", "missing/train.jsonl"],
    ["--out", "missing/results.jsonl"],
  ])("an unwritable %s path exits 2 before any call", async ([flag, path], { expect, h }) => {
    const files = await setup(h);
    const target = `${h.dir}/${path}`;
    const args =
      flag === "--out" ? evalArgs({ ...files, out: target }) : evalArgs(files, flag, target);
    const r = await runMain([...args, "--strategies", "conductor"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Cannot write ${target}: the folder ${h.dir}/missing does not exist. Nothing was sent to any model.`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(chatCount(h)).toBe(0);
  });

  cliIt(
    "refuses an output path that is one of its inputs, before writing anything",
    async ({ expect, h }) => {
      const files = await setup(h);
      const dataset = await readFile(files.dataset, "utf8");
      const r = await runMain(evalArgs({ ...files, out: files.dataset }));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `${files.dataset} is an input of this command; choose another output path.`,
      );
      const same = await runMain(
        evalArgs(files, "--strategies", "conductor", "--training-data", files.out),
      );
      expect(same.stderr).toContain("--training-data and --out must be different files.");
      expect(await readFile(files.dataset, "utf8")).toBe(dataset);
      expect(chatCount(h)).toBe(0);
    },
  );

  cliIt(
    "names the closest strategy (every one listed, workflow included), scorer and judge",
    async ({ expect, h }) => {
      const files = await setup(h);
      const r = await runMain(evalArgs(files, "--strategies", "conductor,workflw"));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'Unknown strategy "workflw" (did you mean "workflow"?); the strategies are conductor, single, single:<worker>, moa, chain, best-of-n, workflow.',
      );
      const scorer = await runMain(evalArgs(files, "--scorer", "maths"));
      expect(scorer.code).toBe(2);
      expect(scorer.stderr).toContain(
        'Unknown scorer "maths" (did you mean "math"?); the scorers are mc, math,',
      );
      const judge = await runMain(evalArgs(files, "--scorer", "judge", "--judge", "Checker2"));
      expect(judge.stderr).toContain(
        'No worker named "Checker2" for --judge (did you mean "Checker"?).',
      );
      const worker = await runMain(evalArgs(files, "--strategies", "single:Solver C"));
      expect(worker.stderr).toContain(
        'No worker named "Solver C" in the pool (did you mean "Solver A"?).',
      );
    },
  );
});

describe("eval: an unreachable endpoint", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "exits 4 when every run failed because its endpoint could not be reached",
    async ({ expect, h }) => {
      const files = await setup(h);
      const config = threeWorkerConfig(h.server, { retry: { maxAttempts: 1 } });
      // Port 9 (discard) on loopback: nothing listens, the connection is refused.
      const conductor = { ...config.conductor, baseURL: "http://127.0.0.1:9/v1" };
      await writeFile(files.config, JSON.stringify({ ...config, conductor }));
      const r = await runMain(evalArgs(files, "--strategies", "conductor"));
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^\[1\/2\] q\d conductor: error \(network: .*could not be reached/m);
      expect(r.stderr).toContain(
        "Every run of this session failed because an endpoint could not be reached",
      );
    },
  );
});

describe("eval: resume only the same evaluation", { timeout: CLI_TIMEOUT_MS * 3 }, () => {
  cliIt(
    "refuses changed prices, rounds or scorer, naming each; --new starts over and keeps the old files",
    async ({ expect, h }) => {
      const files = await setup(h);
      const first = await runMain(evalArgs(files, "--strategies", "conductor,single:Solver A"));
      expect(first.code, first.stderr).toBe(0);
      const before = await readFile(files.out, "utf8");
      h.server.requests.length = 0;

      const config = threeWorkerConfig(h.server, { retry: { maxAttempts: 1 }, rounds: 1 });
      config.workers[0] = { ...config.workers[0]!, price: { input: 3, output: 10 } };
      await writeFile(files.config, JSON.stringify(config));
      const changed = await runMain(
        evalArgs(files, "--strategies", "conductor,single:Solver A", "--scorer", "exact"),
      );
      expect(changed.code).toBe(2);
      expect(changed.stderr).toContain(
        `${files.out} holds results of a different evaluation; resuming would mix them.`,
      );
      expect(changed.stderr).toContain("  - strategy conductor: rounds 0 → 1\n");
      expect(changed.stderr).toContain(
        '  - worker "Solver A": price {"input":2,"output":10} → {"input":3,"output":10}\n',
      );
      expect(changed.stderr).toMatch(/^ {2}- scorer: id "math" → "exact"/m);
      expect(changed.stderr).toContain("Run again with --new to start over");
      expect(chatCount(h)).toBe(0);
      expect(await readFile(files.out, "utf8")).toBe(before);

      const fresh = await runMain(
        evalArgs(files, "--strategies", "conductor,single:Solver A", "--scorer", "exact", "--new"),
      );
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(fresh.stderr).toMatch(
        /^Starting over \(--new\); the earlier files are now .*results\.jsonl\.replaced-/m,
      );
      expect(fresh.stderr).not.toContain("Resuming");
      expect(chatCount(h)).toBeGreaterThan(0);
      expect((await readEvalResults(files.out)).length).toBe(4);
      const kept = (await readdir(h.dir)).filter((f) => f.includes(".replaced-"));
      expect(kept).toHaveLength(2); // the results and their definition
      const old = kept.find((f) => f.startsWith("results.jsonl.replaced-"));
      expect(await readFile(`${h.dir}/${old}`, "utf8")).toBe(before);

      // The same definition again: resumed, nothing requested.
      h.server.requests.length = 0;
      const again = await runMain(
        evalArgs(files, "--strategies", "conductor,single:Solver A", "--scorer", "exact"),
      );
      expect(again.code).toBe(0);
      expect(again.stderr).toContain("Resuming: 4 result(s)");
      expect(chatCount(h)).toBe(0);
    },
  );
});

describe("eval: output for scripts and people", { timeout: CLI_TIMEOUT_MS }, () => {
  cliIt(
    "--json prints the summary as JSON, with accuracy, its interval and the cost",
    async ({ expect, h }) => {
      const files = await setup(h);
      const r = await runMain(
        evalArgs(files, "--strategies", "single:Solver A,single:Solver B", "--json"),
      );
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        format: string;
        status: string;
        done: number;
        total: number;
        cost: number;
        strategies: {
          strategy: string;
          accuracy: number;
          stderr: number;
          accuracyInterval95: number[];
          costPerQuestion: number;
        }[];
      };
      expect(doc).toMatchObject({
        format: "conductor-studio-eval-summary",
        status: "finished",
        done: 4,
        total: 4,
      });
      expect(doc.cost).toBeCloseTo(2 * 0.012 + 2 * 0.002, 9);
      expect(doc.strategies.map((s) => [s.strategy, s.accuracy, s.stderr])).toEqual([
        ["single:Solver A", 1, 0],
        ["single:Solver B", 1, 0],
      ]);
      expect(doc.strategies[0]!.accuracyInterval95).toEqual([1, 1]);
      expect(doc.strategies[0]!.costPerQuestion).toBeCloseTo(0.012, 9);
    },
  );

  cliIt(
    "--json with --repeats 2 carries k, pass@2 and maj@2, as the table does",
    async ({ expect, h }) => {
      const files = await setup(h);
      h.server.setDefault("solver-b", { content: "Answer: 5", usage: EVAL_USAGE });
      const args = evalArgs(
        files,
        "--strategies",
        "single:Solver A,single:Solver B",
        "--repeats",
        "2",
      );
      const r = await runMain([...args, "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        strategies: { strategy: string; k: number; passAtK: number; majAtK: number }[];
      };
      expect(doc.strategies.map((s) => [s.strategy, s.k, s.passAtK, s.majAtK])).toEqual([
        ["single:Solver A", 2, 1, 1],
        ["single:Solver B", 2, 0, 0],
      ]);
      // The table of the same results (resumed: nothing asked again) shows the same figures.
      const table = await runMain(args);
      expect(table.stdout).toMatch(/pass@2/);
      expect(table.stdout).toMatch(/maj@2/);
    },
  );

  cliIt(
    "not on a terminal: one plain line per item with calls in flight, spent and time left",
    async ({ expect, h }) => {
      const files = await setup(h);
      const r = await runCli(
        evalArgs(files, "--strategies", "single:Solver A", "--concurrency", "1"),
      );
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain("\x1b[");
      expect(r.stderr).toMatch(
        /^\[1\/2\] q\d single:Solver A: right \(\d+\.\ds, \$0\.01\) \| 1\/2 done, \d calls? in flight, \$0\.01 spent, (about \d+s left|time left unknown yet)$/m,
      );
      expect(r.stderr).toMatch(
        /^\[2\/2\] q\d single:Solver A: right .* \| 2\/2 done, 0 calls in flight, \$0\.02 spent$/m,
      );
    },
  );

  cliIt(
    "on a terminal: a progress bar redrawn in place, cleared at the end",
    async ({ expect, h }) => {
      const files = await setup(h);
      const { out, io } = memoryIo({ tty: true, columns: 120 });
      const code = await main(evalArgs(files, "--strategies", "single:Solver A"), io);
      expect(code).toBe(0);
      // The escape character shown as <ESC>, so the patterns below stay readable.
      const err = out.stderr.replaceAll("\x1b", "<ESC>");
      expect(err).toMatch(
        /\r<ESC>\[2K\[#*-*\] +\d+% \d\/2 done, \d calls? in flight, \$[\d.]+ spent/,
      );
      expect(out.stderr).toContain(
        "\r\x1b[2K[##############################] 100% 2/2 done, 0 calls in flight, $0.02 spent",
      );
      expect(err).toMatch(/\r<ESC>\[2K\[1\/2\] q\d single:Solver A: right/);
      // The bar is cleared before the closing lines, so the terminal is left clean.
      expect(err).toMatch(/\r<ESC>\[2K2\/2 done in \d+\.\ds, \$0\.02 in all\.\n$/);
      expect(out.stdout).toMatch(/^strategy/m);
    },
  );
});
