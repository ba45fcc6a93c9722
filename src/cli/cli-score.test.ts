// `conductor-studio score`: scoring stored answers by scorer and version, the output lines (first
// as a child process, runCli), and bad input named by line (main in this process, runMain).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CLI_TIMEOUT_MS, runCli, runMain } from "../test-support/cli/cli-harness.ts";

let dir = "";
const cases = [
  { id: "frac", answer: "So $\\boxed{\\frac{1}{3}}$.", reference: "1/3" },
  { id: "wrong", answer: "Answer: 4", reference: "3" },
  { id: "none", answer: "I cannot tell.", reference: "3" },
  { id: "noref", answer: "Answer: 3", reference: "" },
  { id: 5, answer: "Final answer: $x = 2$", reference: "2", extra: "ignored" },
];
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cs-score-"));
  await writeFile(join(dir, "math.jsonl"), jsonl(cases));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("conductor-studio score", { timeout: CLI_TIMEOUT_MS }, () => {
  it("writes one line per case with verdict, extraction, reason, scorer and version", async ({
    expect,
  }) => {
    const r = await runCli(["score", "--scorer", "math", "--input", join(dir, "math.jsonl")]);
    expect(r.code).toBe(0);
    const out = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as unknown);
    expect(out).toEqual([
      {
        id: "frac",
        correct: true,
        extracted: "\\frac{1}{3}",
        reason: "equivalent",
        scorer: "math",
        version: 3,
        profile: "default",
      },
      {
        id: "wrong",
        correct: false,
        extracted: "4",
        reason: "different",
        scorer: "math",
        version: 3,
        profile: "default",
      },
      {
        id: "none",
        correct: false,
        extracted: null,
        reason: "no answer found",
        scorer: "math",
        version: 3,
        profile: "default",
      },
      {
        id: "noref",
        correct: null,
        extracted: null,
        reason: "no reference",
        scorer: "math",
        version: 3,
        profile: "default",
      },
      {
        id: 5,
        correct: true,
        extracted: "x = 2",
        reason: "equivalent",
        scorer: "math",
        version: 3,
        profile: "default",
      },
    ]);
    expect(r.stderr).toBe("math v3 (profile default): 5 cases, 2 correct, 2 wrong, 1 unscored\n");
  });

  it("scores as a named grader with --profile, and refuses an unknown one", async ({ expect }) => {
    const stdin = jsonl([
      { id: "pct", answer: "\\boxed{0.25}", reference: "25" },
      { id: "set", answer: "\\boxed{\\{3, 1\\}}", reference: "\\{1, 3\\}" },
    ]);
    const verdicts = async (profile: string) => {
      const r = await runMain(["score", "--scorer", "math", "--profile", profile, "--input", "-"], {
        stdin,
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`math v3 (profile ${profile}): 2 cases`);
      return r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { correct: boolean; profile: string })
        .map((l) => `${l.profile}:${l.correct}`);
    };
    // qwen-math scales a percentage and compares sets in order; default does neither
    expect(await verdicts("qwen-math")).toEqual(["qwen-math:true", "qwen-math:false"]);
    expect(await verdicts("default")).toEqual(["default:false", "default:true"]);
    for (const p of ["math-verify", "minerva", "strict"]) expect(await verdicts(p)).toHaveLength(2);
    const bad = await runMain(["score", "--scorer", "math", "--profile", "lax", "--input", "-"], {
      stdin,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown math profile "lax"');
  });

  it("scores with an older version on request, and writes --out instead of stdout", async ({
    expect,
  }) => {
    const out = join(dir, "v1.jsonl");
    const r = await runMain([
      "score",
      "--scorer",
      "math",
      "--version",
      "1",
      "--input",
      join(dir, "math.jsonl"),
      "--out",
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const lines = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { version: number; id: unknown; correct: unknown });
    expect(lines.map((l) => l.version)).toEqual([1, 1, 1, 1, 1]);
    // version 1 picked the last number of a reply with no marked answer; version 2 does not guess
    expect(lines.find((l) => l.id === "none")?.correct).toBe(false);
    expect(r.stderr).toContain(`(written to ${out})`);
  });

  it("reads stdin with -, letters the choices for mc, and honours --mode", async ({ expect }) => {
    const stdin = jsonl([
      {
        id: "a",
        answer: "I think it's C",
        reference: "C",
        question: "Pick",
        choices: ["x", "y", "z"],
      },
      { id: "b", answer: "Answer: B or C", reference: "C", choices: ["x", "y", "z"] },
    ]);
    const lenient = await runMain(["score", "--scorer", "mc", "--input", "-"], { stdin });
    expect(lenient.code).toBe(0);
    expect(
      lenient.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { id: "a", correct: true, extracted: "C", reason: "right letter", scorer: "mc", version: 3 },
      {
        id: "b",
        correct: false,
        extracted: null,
        reason: "several letters",
        scorer: "mc",
        version: 3,
      },
    ]);
    const strict = await runMain(["score", "--scorer", "mc", "--mode", "strict", "--input", "-"], {
      stdin,
    });
    expect(JSON.parse(strict.stdout.split("\n")[0]!)).toMatchObject({ id: "a", correct: false });
    const v1 = await runMain(["score", "--scorer", "mc", "--version", "1", "--input", "-"], {
      stdin,
    });
    expect(JSON.parse(v1.stdout.split("\n")[1]!)).toMatchObject({
      id: "b",
      correct: false,
      extracted: "B",
      version: 1,
    });
  });

  it("exits 2 on a bad line, naming it, and writes nothing", async ({ expect }) => {
    const bad = join(dir, "bad.jsonl");
    await writeFile(
      bad,
      `${JSON.stringify(cases[0])}\n{"id": "x", "answer": 3, "reference": "3"}\n`,
    );
    const r = await runMain(["score", "--scorer", "exact", "--input", bad]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/bad\.jsonl line 2: answer: /);
    const notJson = await runMain(["score", "--scorer", "exact", "--input", "-"], {
      stdin: "{}\n{oops\n",
    });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("stdin line 1: id:");
    const dup = await runMain(["score", "--scorer", "contains", "--input", "-"], {
      stdin: jsonl([cases[0], cases[0]]),
    });
    expect(dup.stderr).toContain('stdin line 2: duplicate id "frac"');
  });

  it("exits 2 on bad options, and --help shows the command", async ({ expect }) => {
    const unknown = await runMain(["score", "--scorer", "judge", "--input", "-"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--scorer must be one of math, mc, exact, contains, regex");
    const version = await runMain(["score", "--scorer", "math", "--version", "9", "--input", "-"]);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('Scorer "math" has no version 9 (known: 1, 2, 3).');
    const missing = await runMain([
      "score",
      "--scorer",
      "regex",
      "--input",
      join(dir, "nope.jsonl"),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot read");
    const help = await runMain(["--help"]);
    expect(help.stdout).toMatch(/^ {2}score +score stored answers/m);
    const own = await runMain(["score", "--help"]);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/conductor-studio score --scorer math\|mc\|exact\|contains\|regex/);
    expect(own.stdout).toMatch(/--version N +an older scorer version/);
  });
});
