// `conductor-studio eval` against the local test server: failed calls are errors (exit 1, retried on
// resume; child processes, runCli), and the report's figures are recomputed here from results.jsonl
// alone (main in this process, runMain, as is re-scoring).
import { readFile, writeFile } from "node:fs/promises";
import { describe } from "vitest";
import type { TestServer } from "../../e2e/server/server.ts";
import { bootstrapMeanInterval } from "../engine/eval/stats/bootstrap.ts";
import {
  CLI_TIMEOUT_MS,
  chatRequests,
  cliIt,
  evalArgs,
  readEvalResults,
  runCli,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import { plusOneItems, scriptPlusOne, writeEvalFiles } from "../test-support/cli/eval-setups.ts";

const PLAN = `model_id = [0]
subtasks = ["Solve it and give the final answer."]
access_list = [[]]`;

/** The Conductor sends everything to Solver A (always right); Solver B is right below 10 only. */
function script(server: TestServer) {
  scriptPlusOne(server, {
    "conductor-7b": PLAN,
    "solver-a": (n) => `Answer: ${n + 1}`,
    "solver-b": (n) => `Answer: ${n < 10 ? n + 1 : 0}`,
    checker: "Answer: 0",
  });
}

const NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 20, 30, 40, 50, 60, 70, 80, 90];

async function setup(h: Harness) {
  script(h.server);
  const rows = plusOneItems(NUMBERS).map((item, i) => ({
    ...item,
    subject: NUMBERS[i]! < 10 ? "small" : "large",
  }));
  return writeEvalFiles(h, rows);
}

describe("conductor-studio eval: errors and the report", { timeout: CLI_TIMEOUT_MS * 3 }, () => {
  cliIt(
    "an item whose calls failed is an error: listed apart, exit 1, retried on resume",
    async ({ expect, h }) => {
      const files = await setup(h);
      h.server.setDefault("solver-b", { status: 401 });
      const args = evalArgs(files, "--strategies", "single:Solver A,single:Solver B");
      const r = await runCli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/single:Solver B: error \(auth: The endpoint refused the API key/);
      expect(r.stderr).toContain("16 item(s) errored (a call failed; not counted as wrong):");
      expect(r.stderr).toMatch(/16 × worker auth: /);
      const line = r.stdout.split("\n").find((l) => l.startsWith("single:Solver B"));
      // No accuracy (nothing scored), 0 questions, 16 samples, 16 errors.
      expect(line).toMatch(/^single:Solver B\s+-\s+-\s+-\s+0\s+16\s+16\s+0\s/);
      const rows = await readEvalResults(files.out);
      const b = rows.filter((x) => x.strategy === "single:Solver B");
      expect(b.every((x) => x.correct === null && x.error?.code === "auth")).toBe(true);

      // Fixed key: a second run sends only Solver B's 16 questions, and exits 0.
      script(h.server);
      h.server.requests.length = 0;
      const again = await runCli(args);
      expect(again.code).toBe(0);
      expect(chatRequests(h.server, "solver-a")).toHaveLength(0);
      expect(chatRequests(h.server, "solver-b")).toHaveLength(16);
      expect(again.stdout.split("\n").find((l) => l.startsWith("single:Solver B"))).toMatch(
        /^single:Solver B\s+50\.0\s+\S+\s+\S+\s+16\s+16\s+0\s/,
      );
    },
  );

  cliIt(
    "writes a report whose figures are recomputed here from results.jsonl",
    async ({ expect, h }) => {
      const files = await setup(h);
      const report = `${h.dir}/report.json`;
      const r = await runMain(
        evalArgs(
          files,
          "--strategies",
          "conductor,single:Solver B",
          "--columns",
          "category=subject",
          "--seed",
          "11",
          "--report",
          report,
        ),
      );
      expect(r.code).toBe(0);
      const rows = await readEvalResults(files.out);
      const json = JSON.parse(await readFile(report, "utf8")) as {
        bootstrap: { seed: number; resamples: number; level: number };
        summary: {
          strategy: string;
          questions: number;
          samples: number;
          accuracy: number;
          accuracyCi: { lo: number; hi: number };
          costPerQuestion: number;
          callsPerQuestion: number;
        }[];
        comparisons: {
          strategy: string;
          difference: number;
          p: number;
          test: string;
          discordant: { aOnly: number; bOnly: number };
          sentence: string;
        }[];
        categories: { category: string; strategy: string; accuracy: number; questions: number }[];
      };
      expect(json.bootstrap).toEqual({ seed: 11, resamples: 2000, level: 0.95 });
      for (const s of ["conductor", "single:Solver B"]) {
        const mine = rows.filter((x) => x.strategy === s);
        const row = json.summary.find((x) => x.strategy === s)!;
        const right = mine.filter((x) => x.correct).length;
        expect(row.questions).toBe(16);
        expect(row.samples).toBe(16);
        expect(row.accuracy).toBeCloseTo(right / 16, 12);
        const cost = mine.reduce((a, x) => a + x.cost, 0) / 16;
        expect(row.costPerQuestion).toBeCloseTo(cost, 12);
        expect(row.callsPerQuestion).toBeCloseTo(mine.reduce((a, x) => a + x.calls, 0) / 16, 12);
        // The interval is reproduced from the recorded seed and the file's lines.
        const groups = mine.map((x) => [x.correct ? 1 : 0]);
        expect(row.accuracyCi).toEqual(bootstrapMeanInterval(groups, json.bootstrap));
      }
      // The Conductor (always right) against Solver B (right on the 8 small numbers): 8 discordant
      // questions, all the Conductor's: exact McNemar p = 2 / 2^8.
      const conductorRight = new Set(
        rows.filter((x) => x.strategy === "conductor" && x.correct).map((x) => x.item),
      );
      const bRight = new Set(
        rows.filter((x) => x.strategy === "single:Solver B" && x.correct).map((x) => x.item),
      );
      const aOnly = [...conductorRight].filter((i) => !bRight.has(i)).length;
      const bOnly = [...bRight].filter((i) => !conductorRight.has(i)).length;
      expect([aOnly, bOnly]).toEqual([8, 0]);
      const cmp = json.comparisons.find((c) => c.strategy === "single:Solver B")!;
      expect(cmp).toMatchObject({ test: "mcnemar", discordant: { aOnly, bOnly } });
      expect(cmp.difference).toBeCloseTo((conductorRight.size - bRight.size) / 16, 12);
      expect(cmp.p).toBeCloseTo(2 / 256, 12);
      expect(cmp.sentence).toMatch(
        /^The Conductor is ahead of single:Solver B by 50\.0 points \(95% CI \d+\.\d to \d+\.\d, p = 0\.008\)\.$/,
      );
      expect(r.stdout).toContain(cmp.sentence);
      // Per category, from the file's lines and the dataset's subject column.
      const small = json.categories.find(
        (c) => c.category === "small" && c.strategy === "single:Solver B",
      );
      const large = json.categories.find(
        (c) => c.category === "large" && c.strategy === "single:Solver B",
      );
      expect(small).toMatchObject({ questions: 8, accuracy: 1 });
      expect(large).toMatchObject({ questions: 8, accuracy: 0 });
      expect(rows.filter((x) => x.category === "small")).toHaveLength(16);
      expect(r.stdout).toMatch(/^small\s+single:Solver B\s+8\s+100\.0/m);

      // The CSV report: one row per strategy with the comparison beside it.
      const csvFile = `${h.dir}/report.csv`;
      expect(
        (
          await runMain([
            ...evalArgs(
              files,
              "--strategies",
              "conductor,single:Solver B",
              "--seed",
              "11",
              "--report",
              csvFile,
            ),
          ])
        ).code,
      ).toBe(0);
      const csv = (await readFile(csvFile, "utf8")).trim().split("\n");
      expect(csv[0]).toContain("vsConductorDifference,vsConductorLo,vsConductorHi,vsConductorP");
      const bLine = csv.find((l) => l.startsWith("single:Solver B,"))!.split(",");
      const head = csv[0]!.split(",");
      expect(Number(bLine[head.indexOf("vsConductorP")])).toBeCloseTo(2 / 256, 12);
      expect(bLine[head.indexOf("vsConductorVerdict")]).toBe("ahead");
      expect(bLine[head.indexOf("bootstrapSeed")]).toBe("11");
    },
  );

  cliIt(
    "re-scores a results file without calling a model, and says when scorer versions are mixed",
    async ({ expect, h }) => {
      const files = await setup(h);
      // References written "N.0": exact says wrong, math says right.
      const rows = plusOneItems(NUMBERS.slice(0, 4)).map((x) => ({
        ...x,
        answer: `${x.answer}.0`,
      }));
      const dataset = await h.file("dotted.jsonl", rows.map((x) => JSON.stringify(x)).join("\n"));
      const args = evalArgs(
        { ...files, dataset },
        "--strategies",
        "single:Solver A",
        "--scorer",
        "exact",
      );
      expect((await runMain(args)).code).toBe(0);
      const before = await readEvalResults(files.out);
      expect(before.map((x) => x.correct)).toEqual([false, false, false, false]);
      expect(before[0]!.scoredBy).toMatchObject({ id: "exact" });

      h.server.requests.length = 0;
      const r = await runMain(["eval", "--rescore", "--out", files.out, "--scorer", "math"]);
      expect(r.code).toBe(0);
      expect(h.server.requests).toHaveLength(0);
      expect(r.stderr).toMatch(
        /Re-scored 4 result\(s\) with math v\d+ \(default\): 4 verdict\(s\) changed/,
      );
      const after = await readEvalResults(files.out);
      expect(after.map((x) => [x.correct, x.scoredBy?.id])).toEqual(
        Array.from({ length: 4 }, () => [true, "math"]),
      );
      expect(after.map((x) => x.runId)).toEqual(before.map((x) => x.runId));
      expect((await readEvalResults(`${files.out}.bak`)).map((x) => x.correct)).toEqual([
        false,
        false,
        false,
        false,
      ]);
      const sidecar = JSON.parse(await readFile(`${files.out}.eval.json`, "utf8")) as {
        scorer: { id: string };
      };
      expect(sidecar.scorer.id).toBe("math");
      expect(r.stdout).toMatch(/^single:Solver A\s+100\.0\s/m);
      expect(r.stdout).toMatch(/Scored by math v\d+ \(default\) \(4\)\./);
      expect(after[0]!.scoredBy).toEqual({ id: "math", version: 3, profile: "default" });

      // A line scored by another version: the report says so rather than mixing silently.
      const text = await readFile(files.out, "utf8");
      const lines = text.trim().split("\n");
      const old = { ...(JSON.parse(lines[0]!) as object), scoredBy: { id: "math", version: 0 } };
      await writeFile(files.out, [JSON.stringify(old), ...lines.slice(1)].join("\n") + "\n");
      const mixed = await runMain(["eval", "--rescore", "--out", files.out, "--scorer", "exact"]);
      expect(mixed.code).toBe(0);
      const resumed = await runMain(
        evalArgs({ ...files, dataset }, "--strategies", "single:Solver A", "--scorer", "exact"),
      );
      expect(resumed.stdout).toMatch(/Scored by exact v\d+ \(4\)\./);
      await writeFile(files.out, [JSON.stringify(old), ...lines.slice(1)].join("\n") + "\n");
      // (The definition says exact since that re-score: a run with --scorer math would be refused.)
      const shown = await runMain(
        evalArgs({ ...files, dataset }, "--strategies", "single:Solver A", "--scorer", "exact"),
      );
      expect(shown.stdout).toMatch(
        /Mixed scorers: math v0 \(1\), math v\d+ \(default\) \(3\)\. Re-score/,
      );
      // --rescore needs its file's definition, and a judge needs its questions.
      expect((await runMain(["eval", "--rescore", "--out", `${h.dir}/none.jsonl`])).code).toBe(2);
      const judge = await runMain(["eval", "--rescore", "--out", files.out, "--scorer", "judge"]);
      expect(judge.code).toBe(2);
      expect(judge.stderr).toContain("needs --dataset");
    },
  );
});
