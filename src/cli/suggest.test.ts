import { describe, it } from "vitest";
import { closest, editDistance, explainParseArgsError, optionsIn } from "./suggest.ts";
import { parseArgs } from "node:util";

describe("did you mean", () => {
  it.for<[string, string[], string | null]>([
    ["evl", ["eval", "run", "serve"], "eval"],
    ["sreve", ["eval", "run", "serve"], "serve"],
    ["--max-step", ["--max-steps", "--max-cost"], "--max-steps"],
    ["--max", ["--max-steps", "--workers"], "--max-steps"],
    ["maxStep", ["maxSteps", "rounds"], "maxSteps"],
    ["MAXSTEPS", ["maxSteps"], "maxSteps"],
    ["frobnicate", ["eval", "run", "serve", "parse", "grammar"], null],
    ["x", ["eval", "run"], null],
  ])("%s -> %s", ([word, known, expected], { expect }) => {
    expect(closest(word, known)).toBe(expected);
  });

  it("counts a swap of neighbours as one edit", ({ expect }) => {
    expect(editDistance("questoin", "question")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("reads the documented options from a help text and explains parseArgs errors", ({
    expect,
  }) => {
    const known = optionsIn("  --config FILE  ...\n  --grace-ms N  and --port");
    expect(known).toEqual(["--config", "--grace-ms", "--port"]);
    let error: unknown;
    try {
      parseArgs({ args: ["--prot", "1"], options: { port: { type: "string" } } });
    } catch (e: unknown) {
      error = e;
    }
    expect(explainParseArgsError(error, known)).toBe(
      "Unknown option '--prot' (did you mean --port?).",
    );
    expect(explainParseArgsError(new Error("other"), known)).toBeNull();
  });
});
