// `conductor-studio run --conductor-gguf FILE`: the Conductor is the tiny GGUF (scripts/
// make-tiny-gguf.py) run by real llama.cpp (wllama) in the CLI's own process, with no server for
// it; its plan, constrained by the plan grammar, runs on the workers of the local test server.
import { readFile } from "node:fs/promises";
import { describe } from "vitest";
import { EXIT } from "./exit-codes.ts";
import { makeTinyGguf } from "../test-support/cli/tiny-gguf.ts";
import {
  cliIt,
  QUESTION,
  chatRequests,
  evalArgs,
  readEvalResults,
  readExport,
  runCli,
  runMain,
  threeWorkerConfig,
} from "../test-support/cli/cli-harness.ts";

describe("conductor-studio run --conductor-gguf", { timeout: 90_000 }, () => {
  cliIt(
    "plans with the local GGUF (no Conductor request) and runs the plan on the workers",
    async ({ expect, h }) => {
      h.server.setDefault("solver-a", {
        content: "The sum is 5050.",
        usage: { prompt_tokens: 50, completion_tokens: 6 },
      });
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const args = ["run", "--config", config, "--question", QUESTION];
      const r = await runCli([...args, "--conductor-gguf", makeTinyGguf()], { timeoutMs: 85_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(chatRequests(h.server, "conductor-7b")).toHaveLength(0);
      // The tiny model's plan: one step on model 0 (Solver A) with its one subtask.
      const [step] = chatRequests(h.server, "solver-a");
      expect(JSON.stringify(step?.body.messages)).toContain("Answer the question.");
      const record = readExport(r.stdout).run;
      expect(record.conductor).toMatchObject({ kind: "webllm", model: "gguf:tiny.gguf" });
      expect(record.answer).toBe("The sum is 5050.");
      expect(record.rounds[0]!.plan!.raw).toMatch(/^Let me work out[^\n]*\nmodel_id = \[0\]/);
    },
  );

  cliIt("refuses a file that is not GGUF, before any call", async ({ expect, h }) => {
    const config = await h.file("config.json", threeWorkerConfig(h.server));
    const bad = await h.file("bad.gguf", { not: "a model" });
    const r = await runMain([
      "run",
      "--config",
      config,
      "--question",
      QUESTION,
      "--conductor-gguf",
      bad,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bad.gguf is not a GGUF file");
    expect(h.server.requests).toHaveLength(0);
  });
});

// The process ends by itself once the run is written, also when the run fails: nothing kills the
// child while the test runs, so a CLI that lingers (llama.cpp's wasm still compiling in V8's
// background threads kept Node alive 20-40 s after the answer) runs into this test's timeout. A
// child still running once its test has failed is ended then, so none outlives the suite.
describe(
  "conductor-studio run --conductor-gguf: the process exits by itself",
  { timeout: 90_000 },
  () => {
    cliIt("after a run that succeeds", async ({ expect, h, onTestFinished }) => {
      h.server.setDefault("solver-a", { content: "The sum is 5050." });
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const args = ["run", "--config", config, "--question", QUESTION];
      const r = await runCli([...args, "--conductor-gguf", makeTinyGguf()], {
        noKill: true,
        onSpawn: (child) => onTestFinished(() => void child.kill()),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(readExport(r.stdout).run.answer).toBe("The sum is 5050.");
    });

    cliIt("after a run whose step fails", async ({ expect, h, onTestFinished }) => {
      h.server.setDefault("solver-a", { status: 400, errorMessage: "model refused" });
      const config = await h.file("config.json", threeWorkerConfig(h.server));
      const args = ["run", "--config", config, "--question", QUESTION];
      const r = await runCli([...args, "--conductor-gguf", makeTinyGguf()], {
        noKill: true,
        onSpawn: (child) => onTestFinished(() => void child.kill()),
      });
      expect(r.code, r.stderr).toBe(EXIT.failed);
      expect(r.stderr).toContain("[run] failed");
    });
  },
);

// `eval --conductor-gguf FILE`: the conductor strategy plans each question with the same local
// model, in this process (runMain), and its steps run on the test server's workers.
describe("conductor-studio eval --conductor-gguf", { timeout: 90_000 }, () => {
  cliIt(
    "plans every question with the local GGUF and records it as the Conductor",
    async ({ expect, h }) => {
      h.server.setDefault("solver-a", {
        content: "The sum is 5050.\nAnswer: 5050",
        usage: { prompt_tokens: 50, completion_tokens: 6 },
      });
      const items = [QUESTION, `${QUESTION} Show your work.`].map((question, i) => ({
        id: `q${i + 1}`,
        question,
        answer: "5050",
      }));
      const files = {
        config: await h.file("config.json", threeWorkerConfig(h.server)),
        dataset: await h.file("questions.jsonl", items.map((i) => JSON.stringify(i)).join("\n")),
        out: `${h.dir}/results.jsonl`,
      };
      const args = evalArgs(files, "--strategies", "conductor", "--conductor-gguf", makeTinyGguf());
      const r = await runMain(args);
      expect(r.code, r.stderr).toBe(0);
      expect(chatRequests(h.server, "conductor-7b")).toHaveLength(0);
      const results = await readEvalResults(files.out);
      expect(results.map((x) => [x.item, x.strategy, x.error ?? null])).toEqual([
        ["q1", "conductor", null],
        ["q2", "conductor", null],
      ]);
      // Each question's plan ran on the workers: the tiny model's one step, on Solver A.
      expect(chatRequests(h.server, "solver-a")).toHaveLength(2);
      const definition = JSON.parse(await readFile(`${files.out}.eval.json`, "utf8")) as {
        conductor: { kind: string; model: string };
      };
      expect(definition.conductor).toMatchObject({ kind: "webllm", model: "gguf:tiny.gguf" });
    },
  );

  cliIt("is refused without the conductor strategy, before any call", async ({ expect, h }) => {
    const files = {
      config: await h.file("config.json", threeWorkerConfig(h.server)),
      dataset: await h.file(
        "questions.jsonl",
        JSON.stringify({ question: QUESTION, answer: "5050" }),
      ),
      out: `${h.dir}/results.jsonl`,
    };
    const r = await runMain(
      evalArgs(files, "--strategies", "single", "--conductor-gguf", makeTinyGguf()),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--strategies has no conductor");
    expect(h.server.requests).toHaveLength(0);
  });
});
