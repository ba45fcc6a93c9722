// The CliCommand contract as the commands written apart use it: a module that parses its own
// arguments with node:util parseArgs plugs into main() and gets help, "did you mean", exit 2 for
// usage errors and one-line internal errors, without main knowing its options.
import { parseArgs } from "node:util";
import { describe, it } from "vitest";
import { memoryIo } from "../test-support/cli/cli-harness.ts";
import type { CliCommand } from "./command.ts";
import { UsageError } from "./command.ts";
import { COMMANDS, main } from "./main.ts";

const score: CliCommand = {
  name: "score",
  summary: "score answers",
  help: "Usage: conductor-studio score --answers FILE [--scorer ID]\n\nExamples:\n  conductor-studio score --answers a.jsonl\n",
  run: (args, io) => {
    const { values } = parseArgs({
      args,
      options: { answers: { type: "string" }, scorer: { type: "string" } },
    });
    if (!values.answers) throw new UsageError("--answers FILE is required.");
    if (values.answers === "crash") throw new Error("an unexpected state");
    io.stdout(`scored ${values.answers}\n`);
    return Promise.resolve(0);
  },
};
// The fake stands in for any real command of its name.
const registry = [...COMMANDS.filter((c) => c.name !== score.name), score];

async function cli(argv: string[]) {
  const { out, io } = memoryIo();
  return { code: await main(argv, io, registry), ...out };
}

describe("a parseArgs command in the registry", () => {
  it("runs, and is listed in the top-level help", async ({ expect }) => {
    expect(await cli(["score", "--answers", "a.jsonl"])).toMatchObject({
      code: 0,
      stdout: "scored a.jsonl\n",
    });
    expect((await cli(["--help"])).stdout).toMatch(
      /^ {2}run +plan a question.*\n {2}score +score answers\n {2}serve /m,
    );
  });

  it("prints its help for --help, before its own parser sees it", async ({ expect }) => {
    expect(await cli(["score", "--help"])).toMatchObject({ code: 0, stdout: score.help });
  });

  it("suggests its documented options and commands by their names", async ({ expect }) => {
    const r = await cli(["score", "--answer", "a.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "Unknown option '--answer' (did you mean --answers?).\nRun conductor-studio score --help for usage.\n",
    );
    expect((await cli(["scor"])).stderr).toContain(
      'Unknown command "scor" (did you mean "score"?).',
    );
  });

  it("turns a UsageError into exit 2 and a bug into one line with exit 70", async ({ expect }) => {
    expect(await cli(["score"])).toMatchObject({
      code: 2,
      stderr: "--answers FILE is required.\nRun conductor-studio score --help for usage.\n",
    });
    const crash = await cli(["score", "--answers", "crash"]);
    expect(crash.code).toBe(70);
    expect(crash.stderr).toMatch(
      /^conductor-studio: internal error: an unexpected state\n[^\n]*\n$/,
    );
  });
});
