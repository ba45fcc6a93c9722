// `conductor-studio eval` against the local test server over real HTTP: strategies and scores
// (as a child process, runCli), then resume with the same --out, the spending cap, columns and bad
// rows, and the training data (main in this process, runMain).
import { readFile, writeFile } from "node:fs/promises";
import { describe } from "vitest";
import type { TestServer } from "../../e2e/server/server.ts";
import { EvalResultSchema } from "../engine/eval/schema.ts";
import { exportRun } from "../engine/run/export.ts";
import { emptyRecord, stepRecord } from "../engine/run/record.ts";
import { ConductorSampleSchema } from "../engine/eval/training/sample.ts";
import { WorkerSchema } from "../engine/schema/worker.ts";
import {
  CLI_TIMEOUT_MS,
  chatRequests,
  cliIt,
  evalArgs,
  readEvalResults as lines,
  runCli,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  SOLVER_THEN_CHECKER_PLAN,
  askedPlusOne,
  chatCount,
  judgeByReference,
  plusOneItems,
  scriptPlusOne,
  writeEvalFiles,
} from "../test-support/cli/eval-setups.ts";

/** An exported one-step workflow whose pool is `pool` (studio ids) and whose step runs on `worker`. */
function workflowFile(pool: { id: string; name: string }[], worker: string): string {
  const base = { ...emptyRecord("wf"), pool: pool.map((w) => WorkerSchema.parse(w)) };
  const step = { worker, subtask: "Solve it carefully.", access: [] as number[] };
  return exportRun({
    ...base,
    rounds: [
      {
        index: 0,
        plan: null,
        lists: null,
        steps: [stepRecord(base, step, 0)],
        answer: null,
        accepted: false,
      },
    ],
  });
}

/** Solver A and the Checker answer right, Solver B always wrong; the Conductor always plans a solver
 * then the Checker. */
function script(server: TestServer) {
  scriptPlusOne(server, {
    "conductor-7b": SOLVER_THEN_CHECKER_PLAN,
    "solver-a": (n) => `It is ${n + 1}.\nAnswer: ${n + 1}`,
    "solver-b": "Answer: 0",
    checker: (n) => `Checked.\nAnswer: ${n + 1}`,
  });
}

const ITEMS = plusOneItems([3, 8, 20, 41]);

async function setup(h: Harness) {
  script(h.server);
  return writeEvalFiles(h, ITEMS);
}

/** The scripted models, and `csv` as the questions with each call tried as the config's default. */
async function csvSetup(h: Harness, csv: string) {
  script(h.server);
  return writeEvalFiles(h, csv, { datasetName: "q.csv", config: {} });
}

describe("conductor-studio eval", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt(
    "runs every strategy, writes one line per (item, strategy, repeat) and prints the summary",
    async ({ expect, h }) => {
      const files = await setup(h);
      const r = await runCli(evalArgs(files));
      expect(r.stderr).toMatch(/^\[20\/20\] /m);
      expect(r.code).toBe(0);
      const rows = await lines(files.out);
      expect(rows).toHaveLength(20);
      const acc = (s: string) => rows.filter((x) => x.strategy === s && x.correct).length / 4;
      expect(
        ["conductor", "single:Solver A", "single:Solver B", "single:Checker", "moa"].map(acc),
      ).toEqual([1, 1, 0, 1, 1]);
      const first = rows.find((x) => x.strategy === "single:Solver B")!;
      expect(Object.keys(first)).toEqual(
        expect.arrayContaining([
          "item",
          "strategy",
          "repeat",
          "correct",
          "score",
          "answer",
          "expected",
          "tokens",
          "cost",
          "latencyMs",
          "runId",
        ]),
      );
      expect(first).toMatchObject({
        correct: false,
        score: 0,
        answer: "Answer: 0",
        tokens: 2000,
        cost: 0.002,
      });
      const table = r.stdout.split("\n");
      expect(table[0]).toMatch(
        /^strategy\s+acc %\s+95% CI\s+± s\.e\.\s+questions\s+samples\s+errors\s+unscored\s+plan fail\s+fallback/,
      );
      expect(table.find((l) => l.startsWith("single:Solver B"))).toMatch(
        /^single:Solver B\s+0\.0\s+0\.0-0\.0\s+0\.0\s+4\s+4\s+0\s+0\s+0\s+0\s+2000/,
      );
      expect(table.find((l) => l.startsWith("conductor "))).toMatch(
        /^conductor\s+100\.0\s+100\.0-100\.0\s+0\.0\s+4\s+4\s+0\s+0\s+0\s+0\s+6000\s/,
      );
      // Every strategy against the Conductor: 4 discordant questions are too few for McNemar
      // (p = 2 / 2^4), so the plain sentence says so.
      expect(r.stdout).toContain(
        "The Conductor and single:Solver B: no detectable difference (+100.0 points, 95% CI 100.0 to 100.0, p = 0.125, 4 questions).",
      );
      // Every worker call carried the shared answer-format instruction.
      expect(
        chatRequests(h.server, "solver-b").every((q) =>
          JSON.stringify(q.body.messages).includes("Answer: <value>"),
        ),
      ).toBe(true);
    },
  );

  cliIt(
    "resumes with the same --out: finished items are never requested again",
    async ({ expect, h }) => {
      const files = await setup(h);
      const { out } = files;
      const args = evalArgs(files, "--strategies", "single,moa");
      expect((await runMain(args)).code).toBe(0);
      const full = await readFile(out, "utf8");
      // Keep 9 of the 16 lines, plus a torn line as an interrupted write leaves it.
      const kept = full.trim().split("\n").slice(0, 9);
      await writeFile(out, `${kept.join("\n")}\n{"item":"q4","stra`);
      h.server.requests.length = 0;
      const r = await runMain(args);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain("Resuming: 9 result(s)");
      const rows = await lines(out).catch(() => null);
      expect(rows).toBeNull(); // the torn line is still there, the new lines after it
      const all = (await readFile(out, "utf8"))
        .split("\n")
        .filter((l) => l.startsWith("{") && l.endsWith("}"));
      const keys = all.map((l) => {
        const x = EvalResultSchema.parse(JSON.parse(l));
        return `${x.item}|${x.strategy}|${x.repeat}`;
      });
      expect(new Set(keys).size).toBe(16);
      expect(keys).toHaveLength(16);
      const missing = full
        .trim()
        .split("\n")
        .slice(9)
        .map((l) => EvalResultSchema.parse(JSON.parse(l)));
      const callsFor = (s: string) => (s === "moa" ? 4 : 1);
      expect(chatCount(h)).toBe(missing.reduce((n, x) => n + callsFor(x.strategy), 0));
      // A third run has nothing left to do and sends nothing.
      h.server.requests.length = 0;
      expect((await runMain(args)).code).toBe(0);
      expect(chatCount(h)).toBe(0);
    },
  );

  cliIt(
    "stops at the spending cap and starts nothing past it on a resumed run",
    async ({ expect, h }) => {
      const files = await setup(h);
      // Solver A costs $0.012 per question (1000 tokens in at $2/M, 1000 out at $10/M).
      const args = evalArgs(
        files,
        "--strategies",
        "single:Solver A",
        "--concurrency",
        "1",
        "--max-cost",
        "0.025",
      );
      const r = await runMain(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^Spending cap \$0\.025\d*: \$0\.024\d* spent, 2\/4 item\(s\) done\./m,
      );
      // The skipped item is named with the measured estimate that did not fit.
      expect(r.stderr).toMatch(
        /single:Solver A: 2 item\(s\) skipped, estimated \$0\.012\d* each \(from its measured mean\)/,
      );
      const rows = await lines(files.out);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.length).toBeLessThan(4);
      const spent = rows.reduce((a, x) => a + x.cost, 0);
      expect(spent).toBeLessThanOrEqual(0.025 + 0.012);
      h.server.requests.length = 0;
      const again = await runMain(args);
      expect(again.code).toBe(1);
      expect(chatCount(h)).toBe(0);
    },
  );

  cliIt(
    "maps --columns, lists bad rows by line, and writes training data",
    async ({ expect, h }) => {
      const csv = 'key,prompt,gold\nx1,What is 5 plus one?,6\nx2,,7\nx3,"What is 9 plus one?",10\n';
      const files = await csvSetup(h, csv);
      const { out } = files;
      const base = evalArgs(
        files,
        "--columns",
        "question=prompt,answer=gold,id=key",
        "--strategies",
        "conductor",
      );
      const refused = await runMain(base);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('line 3: The question column "prompt" is empty or missing.');
      const train = `${h.dir}/train.jsonl`;
      const r = await runMain([
        ...base,
        "--skip-bad-rows",
        "--training-data",
        train,
        "--repeats",
        "2",
      ]);
      expect(r.code).toBe(0);
      expect((await lines(out)).map((x) => `${x.item}#${x.repeat}`).sort()).toEqual([
        "x1#0",
        "x1#1",
        "x3#0",
        "x3#1",
      ]);
      const samples = (await readFile(train, "utf8"))
        .trim()
        .split("\n")
        .map((l) => ConductorSampleSchema.parse(JSON.parse(l)));
      expect(samples).toHaveLength(4);
      expect(samples[0]!.reward).toEqual({
        total: 1,
        correct: 1,
        format: 1,
        scheme: { scheme: "paper" },
      });
      const grpo = (await readFile(`${h.dir}/train.grpo.jsonl`, "utf8")).trim().split("\n");
      expect(grpo).toHaveLength(2);
      expect((await readFile(`${h.dir}/train.verl.parquet`)).subarray(0, 4).toString()).toBe(
        "PAR1",
      );
    },
  );

  cliIt(
    "finds a file's columns by name as the studio does, says so, and --columns still wins",
    async ({ expect, h }) => {
      const csv = "Problem,Solution,other\nWhat is 5 plus one?,6,7\nWhat is 9 plus one?,10,0\n";
      const files = await csvSetup(h, csv);
      const { out } = files;
      const r = await runMain(
        evalArgs(files, "--strategies", "single:Solver A", "--scorer", "math"),
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        "Columns: question=Problem, answer=Solution (--columns overrides).",
      );
      expect((await lines(out)).map((x) => x.correct)).toEqual([true, true]);
      // The same file with the answer taken from another column: every answer is now wrong.
      const out2 = `${h.dir}/r2.jsonl`;
      const wrong = await runMain(
        evalArgs(
          { ...files, out: out2 },
          "--strategies",
          "single:Solver A",
          "--scorer",
          "math",
          "--columns",
          "answer=other",
        ),
      );
      expect(wrong.code).toBe(0);
      expect((await lines(out2)).map((x) => x.correct)).toEqual([false, false]);
    },
  );

  cliIt(
    "applies an exported workflow to every question and scores with an LLM judge; a failed judge leaves unscored",
    async ({ expect, h }) => {
      const files = await setup(h);
      // The studio's ids and order are not the config's: the step's worker is found by its name.
      const workflow = await h.file(
        "workflow.json",
        workflowFile(
          [
            { id: "studio-b", name: "Solver B" },
            { id: "studio-a", name: "Solver A" },
          ],
          "studio-a",
        ),
      );
      // The Checker judges: correct when the candidate holds the reference; it fails on "What is 20".
      h.server.setDefault("checker", (b) =>
        askedPlusOne(b) === 20 ? { status: 500 } : `Comparing.\n${judgeByReference(b)}`,
      );
      const r = await runMain(
        evalArgs(
          files,
          "--strategies",
          "workflow,single:Solver B",
          "--workflow",
          workflow,
          "--scorer",
          "judge",
          "--judge",
          "Checker",
        ),
      );
      expect(r.stderr).toContain("[8/8]");
      expect(r.code).toBe(0);
      const rows = await lines(files.out);
      const verdicts = (s: string) =>
        rows
          .filter((x) => x.strategy === s)
          .sort((a, b) => a.item.localeCompare(b.item))
          .map((x) => x.correct);
      expect(verdicts("workflow")).toEqual([true, true, null, true]);
      expect(verdicts("single:Solver B")).toEqual([false, false, null, false]);
      expect(chatRequests(h.server, "solver-a")[0]!.body.messages.at(-1)!.content).toEqual(
        expect.stringContaining("Solve it carefully."),
      );
      expect(r.stdout.split("\n").find((l) => l.startsWith("workflow"))).toMatch(
        /^workflow\s+100\.0\s+100\.0-100\.0\s+0\.0\s+4\s+4\s+0\s+1\s/,
      );
    },
  );

  cliIt(
    "refuses a workflow whose worker has no namesake in the config, naming it",
    async ({ expect, h }) => {
      const files = await setup(h);
      const workflow = await h.file(
        "workflow.json",
        workflowFile([{ id: "studio-x", name: "Solver X" }], "studio-x"),
      );
      const r = await runMain(evalArgs(files, "--strategies", "workflow", "--workflow", workflow));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'uses a worker named "Solver X", which the config\'s workers lack',
      );
      expect(chatRequests(h.server, "solver-a")).toHaveLength(0);
    },
  );
});
