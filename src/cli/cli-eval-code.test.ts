// `conductor-studio eval` with the code scorer, as a child process against the local test server
// over HTTP: the five scripted code answers the browser test scores (e2e/eval-code.spec.ts), the
// same pass@1 and per-item verdicts, the tests' details on each line, and a process that exits as
// soon as it is done. The refusals and the help run main in this process (runMain).
import { readFile, writeFile } from "node:fs/promises";
import { describe, it } from "vitest";
import {
  CODE_EXPECTED,
  CODE_PASS_AT_1,
  CODE_QUESTIONS_JSONL,
  scriptedCodeReply,
} from "../../e2e/fixtures/code-answers.ts";
import {
  chatRequests,
  cliIt,
  evalArgs,
  promptText,
  readEvalResults,
  runCli,
  runMain,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";
import { CODE_SCORER_VERSION } from "../engine/eval/code/scorer.ts";

// A cold Pyodide start in the sandbox process takes seconds on a busy machine, and the hanging answer
// costs its 2 s limit and a fresh interpreter.
const TIMEOUT_MS = 90_000;

describe("conductor-studio eval --scorer code", { timeout: TIMEOUT_MS + 30_000 }, () => {
  cliIt(
    "scores the scripted code answers as the browser does, with tests per item, and exits",
    async ({ expect, h }) => {
      h.server.setDefault("solver-a", (body) =>
        scriptedCodeReply(promptText({ headers: {}, body })),
      );
      const config = await h.file(
        "pool.json",
        threeWorkerConfig(h.server, { retry: { maxAttempts: 1 } }),
      );
      const dataset = await h.file("code.jsonl", CODE_QUESTIONS_JSONL);
      const out = `${h.dir}/results.jsonl`;
      // When the closing line ("... in all.") reached stderr: the evaluation was over.
      let over = 0;
      const r = await runCli(
        evalArgs({ config, dataset, out }, "--strategies", "single:Solver A"),
        {
          timeoutMs: TIMEOUT_MS,
          onSpawn: (child) => {
            let seen = "";
            child.stderr?.on("data", (d: string) => {
              seen += d;
              if (!over && seen.includes(" in all.\n")) over = Date.now();
            });
          },
        },
      );
      // Exited by itself once done (the sandbox's processes and timers ended): killed at the
      // timeout it would have no exit code 0.
      expect(r.code, r.stderr).toBe(0);
      expect(over).toBeGreaterThan(0);
      expect(r.stderr).toContain("Starting the Python sandbox (python3 ");
      expect(r.stderr).toMatch(/code-wrong single:Solver A: wrong .*0\/2 tests passed/);

      const rows = await readEvalResults(out);
      expect(Object.fromEntries(rows.map((x) => [x.item, x.correct]))).toEqual(CODE_EXPECTED);
      expect(rows.filter((x) => x.correct).length / rows.length).toBe(CODE_PASS_AT_1);
      const row = (id: string) => rows.find((x) => x.item === id)!;
      expect(row("code-right").code).toMatchObject({ passed: 2, total: 2, firstFailure: null });
      expect(row("code-function").code).toMatchObject({ passed: 1, total: 1 });
      expect(row("code-wrong")).toMatchObject({
        reason: "wrong answer on test 1 of 2",
        code: {
          passed: 0,
          total: 2,
          firstFailure: {
            index: 0,
            verdict: "wrong_answer",
            input: "1 2\n",
            expected: "3\n",
            actual: "2\n",
          },
        },
      });
      expect(row("code-hang")).toMatchObject({
        reason: "time limit exceeded on test 1 of 2",
        code: {
          passed: 0,
          total: 2,
          skipped: 1,
          timeMs: 2000,
          firstFailure: { verdict: "timeout" },
        },
      });
      expect(row("code-escape").code?.firstFailure).toMatchObject({ verdict: "runtime_error" });
      expect(row("code-escape").reason).toMatch(
        /ImportError: js is not available in the code sandbox/,
      );
      expect(rows.every((x) => x.code && x.code.timeMs >= 0)).toBe(true);

      // The table's pass@1, and the workers were asked for a fenced program.
      expect(r.stdout.split("\n").find((l) => l.startsWith("single:Solver A"))).toMatch(
        /^single:Solver A\s+40\.0\s/,
      );
      const prompts = chatRequests(h.server, "solver-a").map(promptText);
      expect(prompts).toHaveLength(5);
      expect(prompts.every((p) => p.includes("complete program in one fenced code block"))).toBe(
        true,
      );
      const sidecar = JSON.parse(await readFile(`${out}.eval.json`, "utf8")) as {
        scorer: { id: string; version: number };
      };
      expect(sidecar.scorer).toEqual({ id: "code", options: {}, version: CODE_SCORER_VERSION });

      // Results the old code scorer wrote are not resumed into: their verdicts are suspect.
      const raw = JSON.parse(await readFile(`${out}.eval.json`, "utf8")) as Record<string, unknown>;
      raw.scorer = { id: "code", options: {}, version: 1 };
      await writeFile(`${out}.eval.json`, JSON.stringify(raw));
      const again = await runMain(
        evalArgs({ config, dataset, out }, "--strategies", "single:Solver A"),
      );
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/Scored by code scorer v1.*--new, or use a new --out/s);
    },
  );

  it("lists --scorer code in the help", async ({ expect }) => {
    const r = await runMain(["eval", "--help"]);
    expect(r.stdout).toMatch(/--scorer <ID> +mc\|math\|exact\|contains\|regex\|judge\|code/);
    expect(r.stdout).toContain("--scorer code");
  });

  it("refuses a --max-time-limit that is not a number of seconds", async ({ expect }) => {
    const files = { config: "pool.json", dataset: "code.jsonl", out: "out.jsonl" };
    const r = await runMain(evalArgs(files, "--max-time-limit", "soon"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--max-time-limit must be a number of seconds of at least 1, got "soon".',
    );
  });
});
