// `conductor-studio eval --rescore` in this process (runMain): what it refuses (exit 2, the file left
// as it was), errored items (exit 1), --only-unscored, and which scorer options and grader profile
// the re-scored definition keeps.
import { readFile, writeFile } from "node:fs/promises";
import { describe } from "vitest";
import {
  CLI_TIMEOUT_MS,
  chatRequests,
  cliIt,
  evalArgs,
  promptText,
  readEvalResults,
  runMain,
} from "../test-support/cli/cli-harness.ts";
import type { Harness } from "../test-support/cli/cli-harness.ts";
import {
  judgeByReference,
  plusOneItems,
  scriptPlusOne,
  writeEvalFiles,
} from "../test-support/cli/eval-setups.ts";

interface Sidecar {
  scorer: { id: string; options: Record<string, unknown>; profile?: string };
  dataset: { hash: string };
}

const readSidecar = async (out: string) =>
  JSON.parse(await readFile(`${out}.eval.json`, "utf8")) as Sidecar;

/**
 * Evaluates four "What is N plus one?" questions whose references are written "N.0" (exact says
 * wrong, math says right) with Solver A (always right) under `extra` (the scorer flags); the
 * Checker judges by the reference, Solver B's calls are refused.
 */
async function evaluated(h: Harness, expectedCode: number, ...extra: string[]) {
  scriptPlusOne(h.server, {
    "solver-a": (n) => `Answer: ${n + 1}`,
    checker: (_n, b) => `Comparing.\n${judgeByReference(b)}`,
  });
  h.server.setDefault("solver-b", { status: 401 });
  const rows = plusOneItems([1, 2, 3, 4]).map((x) => ({ ...x, answer: `${x.answer}.0` }));
  const files = await writeEvalFiles(h, rows);
  const r = await runMain(evalArgs(files, ...extra));
  if (r.code !== expectedCode) throw new Error(`eval exited ${r.code}: ${r.stderr}`);
  return files;
}

const rescore = (out: string, ...extra: string[]) =>
  runMain(["eval", "--rescore", "--out", out, ...extra]);

describe("conductor-studio eval --rescore", { timeout: CLI_TIMEOUT_MS * 2 }, () => {
  cliIt(
    "refuses bad input with exit 2, saying why, and leaves the file as it was",
    async ({ expect, h }) => {
      const files = await evaluated(h, 0, "--strategies", "single:Solver A", "--scorer", "exact");
      const { out, config, dataset } = files;
      const { hash } = (await readSidecar(out)).dataset;
      const other = await h.file("other.jsonl", JSON.stringify(plusOneItems([9])[0]));
      const none = `${h.dir}/none.jsonl`;
      const text = await h.file("text.jsonl", await readFile(out, "utf8"));
      await h.file("text.jsonl.eval.json", "{ not json");
      const odd = await h.file("odd.jsonl", await readFile(out, "utf8"));
      await h.file("odd.jsonl.eval.json", { scorer: "exact" });
      const empty = await h.file("empty.jsonl", "");
      await h.file("empty.jsonl.eval.json", await readFile(`${out}.eval.json`, "utf8"));
      const judge = ["--scorer", "judge", "--dataset", dataset];
      const cases: [string[], string][] = [
        [["eval", "--rescore"], "--rescore needs --out, the results file to score again."],
        [
          ["eval", "--rescore", "--out", none],
          `Cannot read ${none}.eval.json, the evaluation beside ${none}.`,
        ],
        [["eval", "--rescore", "--out", text], `${text}.eval.json is not JSON.`],
        [["eval", "--rescore", "--out", odd], `${odd}.eval.json is not an evaluation.`],
        [["eval", "--rescore", "--out", empty], `${empty} holds no results to score again.`],
        [
          ["eval", "--rescore", "--out", out, "--scorer", "judge"],
          "Re-scoring with judge needs --dataset (the questions and their tests).",
        ],
        [
          ["eval", "--rescore", "--out", out, "--scorer", "math", "--dataset", other],
          `${other} is not the question set of ${out} (hash ${hash}).`,
        ],
        [
          ["eval", "--rescore", "--out", out, ...judge],
          "Re-scoring with the judge needs --config and --judge NAME.",
        ],
        [
          ["eval", "--rescore", "--out", out, ...judge, "--config", config, "--judge", "Nobody"],
          'No worker named "Nobody" for --judge.',
        ],
        [
          ["eval", "--rescore", "--out", out, ...judge, "--config", none, "--judge", "Checker"],
          `Cannot read the config file ${none}.`,
        ],
        [
          ["eval", "--rescore", "--out", out, "--scorer", "math", "--profile", "lax"],
          'Unknown math profile "lax" (known: default, math-verify, qwen-math, minerva, strict).',
        ],
      ];
      const stored = await readFile(out, "utf8");
      for (const [args, message] of cases) {
        const r = await runMain(args);
        expect([r.code, r.stderr.trim().split("\n").at(-1)], args.join(" ")).toEqual([2, message]);
      }
      expect(await readFile(out, "utf8")).toBe(stored);
      expect((await readSidecar(out)).scorer.id).toBe("exact");
      await expect(readFile(`${out}.bak`)).rejects.toThrow(/ENOENT/);
    },
  );

  cliIt("exits 1 and lists the errored items it could not score", async ({ expect, h }) => {
    const strategies = ["--strategies", "single:Solver A,single:Solver B"];
    const files = await evaluated(h, 1, ...strategies, "--scorer", "exact");
    const r = await rescore(files.out, "--scorer", "math");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Re-scored 4 result\(s\) with math v\d+ \(default\): 4 verdict/);
    expect(r.stderr).toContain("4 item(s) errored (a call failed; not counted as wrong):\n");
    expect(r.stderr).toMatch(/ {2}4 × worker auth: /);
    const after = await readEvalResults(files.out);
    expect(after.filter((x) => x.error).map((x) => x.strategy)).toEqual(
      Array.from({ length: 4 }, () => "single:Solver B"),
    );
    expect(after.filter((x) => !x.error).map((x) => [x.correct, x.scoredBy?.id])).toEqual(
      Array.from({ length: 4 }, () => [true, "math"]),
    );
  });

  cliIt(
    "scores only the results without a verdict under --only-unscored",
    async ({ expect, h }) => {
      const files = await evaluated(h, 0, "--strategies", "single:Solver A", "--scorer", "exact");
      const [first, ...rest] = (await readFile(files.out, "utf8")).trim().split("\n");
      const unscored = { ...(JSON.parse(first!) as object), correct: null };
      await writeFile(files.out, [JSON.stringify(unscored), ...rest].join("\n") + "\n");
      const r = await rescore(files.out, "--scorer", "math", "--only-unscored");
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^Re-scored 4 result\(s\) with math v\d+ \(default\): 1 verdict/);
      const after = await readEvalResults(files.out);
      expect(after.map((x) => [x.correct, x.scoredBy?.id])).toEqual([
        [true, "math"],
        [false, "exact"],
        [false, "exact"],
        [false, "exact"],
      ]);
    },
  );

  cliIt(
    "keeps the grader profile of the same scorer unless --profile names another",
    async ({ expect, h }) => {
      const math = ["--strategies", "single:Solver A", "--scorer", "math", "--profile", "minerva"];
      const { out } = await evaluated(h, 0, ...math);
      expect((await readSidecar(out)).scorer).toMatchObject({ id: "math", profile: "minerva" });
      // No --scorer: the evaluation's own, at its profile.
      const same = await rescore(out);
      expect(same.code).toBe(0);
      expect(same.stderr).toMatch(/^Re-scored 4 result\(s\) with math v\d+ \(minerva\): 0 verdict/);
      expect((await readSidecar(out)).scorer).toMatchObject({ id: "math", profile: "minerva" });
      expect((await readEvalResults(out)).map((x) => x.scoredBy?.profile)).toEqual(
        Array.from({ length: 4 }, () => "minerva"),
      );
      const strict = await rescore(out, "--profile", "strict");
      expect(strict.stderr).toMatch(/ with math v\d+ \(strict\): /);
      expect((await readSidecar(out)).scorer).toMatchObject({ id: "math", profile: "strict" });
      const exact = await rescore(out, "--scorer", "exact");
      expect(exact.code).toBe(0);
      expect((await readSidecar(out)).scorer).not.toHaveProperty("profile");
    },
  );

  cliIt(
    "keeps the judge's options for the same judge, and gives another scorer none",
    async ({ expect, h }) => {
      const judged = ["--strategies", "single:Solver A", "--scorer", "judge", "--judge", "Checker"];
      const files = await evaluated(h, 0, ...judged);
      const { out, config, dataset } = files;
      // A rubric, as a definition made in the studio may carry.
      const sidecar = await readSidecar(out);
      expect(sidecar.scorer.options).toEqual({ judge: "Checker" });
      sidecar.scorer.options.rubric = "Mind the units.";
      await writeFile(`${out}.eval.json`, JSON.stringify(sidecar));
      h.server.requests.length = 0;
      const args = ["--scorer", "judge", "--dataset", dataset, "--config", config];
      const r = await rescore(out, ...args, "--judge", "Checker");
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^Re-scored 4 result\(s\) with judge v\d+: 0 verdict/);
      const asked = chatRequests(h.server, "checker");
      expect(asked).toHaveLength(4);
      expect(promptText(asked[0])).toContain("Mind the units.");
      expect((await readSidecar(out)).scorer.options).toEqual({
        judge: "Checker",
        rubric: "Mind the units.",
      });
      expect((await rescore(out, "--scorer", "math")).code).toBe(0);
      const math = (await readSidecar(out)).scorer;
      expect([math.id, math.options]).toEqual(["math", {}]);
    },
  );
});
