// Help per command, --version and "did you mean" (docs/cli.md shows the help: cli-docs.test.ts). In
// process (main() with a recording Io): no child process, no server.
import { readFile } from "node:fs/promises";
import { describe, it } from "vitest";
import { memoryIo } from "../test-support/cli/cli-harness.ts";
import { EXIT } from "./exit-codes.ts";
import { COMMANDS, main } from "./main.ts";
import { PARSE_EXAMPLE_INPUT, PARSE_EXAMPLE_OUTPUT } from "./commands/parse.ts";

async function cli(argv: string[], stdin?: string) {
  const { out, io } = memoryIo({ stdin });
  const code = await main(argv, io);
  return { code, ...out };
}

/** The lines under "Examples:" in a help text. */
function examples(help: string): string[] {
  const at = help.indexOf("\nExamples:\n");
  return at < 0
    ? []
    : help
        .slice(at + "\nExamples:\n".length)
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
}

const NAMES = COMMANDS.map((c) => c.name);

describe("help", () => {
  it("lists every registered command with its summary, each a complete CliCommand", async ({
    expect,
  }) => {
    expect(COMMANDS.map((c) => c.name)).toEqual(expect.arrayContaining(NAMES));
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    const width = Math.max(...COMMANDS.map((c) => c.name.length));
    for (const c of COMMANDS) {
      expect(typeof c.run).toBe("function");
      expect(r.stdout).toContain(`  ${c.name.padEnd(width)}  ${c.summary}`);
    }
    expect((await cli([])).stdout).toBe(r.stdout);
  });

  it.for(NAMES)(
    "%s --help, -h and help %s print usage, exit codes and examples",
    async (name, { expect }) => {
      const r = await cli([name, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(new RegExp(`^Usage: conductor-studio ${name} `, "m"));
      expect(r.stdout).toMatch(/^Exit codes:\n {3}0 {2}\S/m);
      const ex = examples(r.stdout);
      expect(ex.length).toBeGreaterThanOrEqual(2);
      expect(ex.some((l) => l.startsWith(`conductor-studio ${name} `))).toBe(true);
      expect((await cli([name, "-h"])).stdout).toBe(r.stdout);
      expect((await cli(["help", name])).stdout).toBe(r.stdout);
      // --help wins over missing required options: no command runs.
      expect((await cli([name, "--config", "/nonexistent.json", "--help"])).code).toBe(0);
    },
  );

  it("eval's help carries what only the manual said", async ({ expect }) => {
    const { stdout } = await cli(["eval", "--help"]);
    for (const s of ["conductor", "single", "moa", "chain", "best-of-n", "workflow"])
      expect(stdout).toMatch(new RegExp(`^  ${s.replace(/[<>:]/g, "\\$&")} `, "m"));
    expect(stdout).toContain("Scorer (--scorer), when not given: code when items have tests");
    expect(stdout).toContain(
      "  question   question, problem, prompt, input, q (else the first column)",
    );
    expect(stdout).toContain("  category   category, subject, topic, domain");
    expect(stdout).toContain("OUT.eval.json beside it holds the evaluation's definition");
    expect(stdout).toContain(
      "Spending cap (--max-cost): before an item starts, its cost is estimated and reserved",
    );
    const serve = (await cli(["serve", "--help"])).stdout;
    for (const status of ["400", "401", "413", "429", "502", "503"])
      expect(serve).toMatch(new RegExp(`^  .*${status}  `, "m"));
  });

  it("the parse example shows exactly what parse prints", async ({ expect }) => {
    const { stdout: help } = await cli(["parse", "--help"]);
    expect(help).toContain(PARSE_EXAMPLE_OUTPUT);
    expect(help).toContain(PARSE_EXAMPLE_INPUT.replace(/^/gm, "    "));
    const r = await cli(["parse", "--workers", "3", "-"], PARSE_EXAMPLE_INPUT);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${PARSE_EXAMPLE_OUTPUT}\n`);
  });

  it("--version prints package.json's version", async ({ expect }) => {
    const pkg = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V", "version"]) {
      const r = await cli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`conductor-studio ${pkg.version}\n`);
    }
  });
});

describe("did you mean", () => {
  it.for<[string[], string]>([
    [["evl"], 'Unknown command "evl" (did you mean "eval"?).'],
    [["serv"], 'Unknown command "serv" (did you mean "serve"?).'],
    [["help", "pars"], 'Unknown command "pars" (did you mean "parse"?).'],
    [["--verison"], "Unknown option '--verison' (did you mean --version?)"],
    [
      ["grammar", "--workers", "3", "--max-step", "2"],
      "Unknown option '--max-step' (did you mean --max-steps?)",
    ],
    [["parse", "--worker", "3"], "Unknown option '--worker' (did you mean --workers?)"],
    [
      ["eval", "--dataset", "q.jsonl", "--max-cots", "1"],
      "Unknown option '--max-cots' (did you mean --max-cost?)",
    ],
    [["run", "--questoin", "hi"], "Unknown option '--questoin' (did you mean --question?)"],
    [
      ["serve", "--config", "p.json", "--prot", "9000"],
      "Unknown option '--prot' (did you mean --port?)",
    ],
  ])("%j", async ([argv, message], { expect }) => {
    const r = await cli(argv);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });

  it("names no command when none is close", async ({ expect }) => {
    const r = await cli(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Unknown command "frobnicate".\nRun conductor-studio --help for usage.\n',
    );
  });
});
