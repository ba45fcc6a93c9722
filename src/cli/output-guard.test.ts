// Commands that write files never write over what the user gave them, and say why before doing
// any work: the prompts help's own example once wrote the prompts over the question set.
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe } from "vitest";
import { exportRun } from "../engine/run/export.ts";
import { twoRoundRun } from "../test-support/engine/otel/otel-records.ts";
import { cliIt, threeWorkerConfig } from "../test-support/cli/cli-harness.ts";
import type { Io } from "./command.ts";
import { main } from "./main.ts";

function io() {
  const out = { stdout: "", stderr: "" };
  const value: Io = {
    stdout: (s) => void (out.stdout += s),
    stderr: (s) => void (out.stderr += s),
    readStdin: () => Promise.resolve(""),
    env: {},
  };
  return { io: value, out };
}

const QUESTIONS = '{"id":"q1","question":"What is 2 plus 2?","answer":"4"}\n';

describe("an output that is an input, or that cannot be written", () => {
  cliIt(
    "prompts: --out naming the dataset or the config is refused, and both are untouched",
    async ({ expect, h }) => {
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const configText = await readFile(config, "utf8");
      const dataset = await h.file("train.jsonl", QUESTIONS);
      for (const out of [dataset, config]) {
        const t = io();
        const args = ["prompts", "--config", config, "--dataset", dataset, "--out", out];
        expect(await main(args, t.io)).toBe(2);
        expect(t.out.stderr).toContain(
          `${out} is an input of this command; choose another output path.`,
        );
      }
      expect(await readFile(dataset, "utf8")).toBe(QUESTIONS);
      expect(await readFile(config, "utf8")).toBe(configText);
      expect((await readdir(h.dir)).sort()).toEqual(["pool.json", "train.jsonl"]);
    },
  );

  cliIt(
    "prompts: an --out in a missing folder says so, and writes nothing",
    async ({ expect, h }) => {
      const config = await h.file("pool.json", threeWorkerConfig(h.server));
      const dataset = await h.file("train.jsonl", QUESTIONS);
      const out = join(h.dir, "prompts", "train.jsonl");
      const t = io();
      const args = ["prompts", "--config", config, "--dataset", dataset, "--out", out];
      expect(await main(args, t.io)).toBe(2);
      expect(t.out.stderr).toContain(
        `Cannot write ${out}: the folder ${join(h.dir, "prompts")} does not exist. Nothing was written.`,
      );
      expect(t.out.stderr).not.toMatch(/internal error/);
      expect((await readdir(h.dir)).sort()).toEqual(["pool.json", "train.jsonl"]);
    },
  );

  cliIt(
    "score: --out naming --input is refused before scoring; the answers are untouched",
    async ({ expect, h }) => {
      const cases = '{"id":"a","answer":"Answer: 4","reference":"4"}\n';
      const input = await h.file("answers.jsonl", cases);
      const t = io();
      const args = ["score", "--scorer", "math", "--input", input, "--out", input];
      expect(await main(args, t.io)).toBe(2);
      expect(t.out.stderr).toContain(`${input} is an input of this command`);
      expect(t.out.stderr).toContain("choose another output path.");
      expect(t.out.stdout).toBe("");
      expect(await readFile(input, "utf8")).toBe(cases);
    },
  );

  cliIt(
    "otel: --out naming one of the run files is refused; the run is untouched",
    async ({ expect, h }) => {
      const run = exportRun(twoRoundRun());
      const file = await h.file("run.json", run);
      const before = await readFile(file, "utf8");
      const t = io();
      expect(await main(["otel", file, "--out", file], t.io)).toBe(2);
      expect(t.out.stderr).toContain(`${file} is an input of this command`);
      expect(await readFile(file, "utf8")).toBe(before);
      // A path elsewhere is written as before.
      const ok = io();
      const out = join(h.dir, "trace.json");
      expect(await main(["otel", file, "--out", out], ok.io)).toBe(0);
      expect(JSON.parse(await readFile(out, "utf8"))).toHaveProperty("resourceSpans");
    },
  );
});
