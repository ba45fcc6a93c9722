// Rules of math v2 that the structure tables leave loose (found by a Stryker run on math-v2.ts and
// math-compare.ts): reasons, short-cuts, percentages of assignments, chains, flipped relations.
import { describe, expect, it } from "vitest";
import { MathReasonSchema, compareMath, mathScorerV2 } from "./math-v2.ts";

const signal = new AbortController().signal;
const boxed = async (answer: string, reference: string) =>
  (await compareMath(`\\boxed{${answer}}`, reference)).correct;

describe("math v2 rules", () => {
  it.each([
    ["x = y + 1 = 4", "x = 4", true], // a chain: its last side
    ["x < 3", "x \\le 3", false], // operators differ
    ["x \\neq 3", "3 \\neq x", true], // not-equal has no direction
    ["-2x < -2", "x < 1", false], // a negative factor flips an inequality
    ["1 \\le x < 2", "[1, 2)", true],
    ["1 < x \\le 2", "(1, 2)", false],
    ["0 < x < 1", "1", false],
    ["1 : 2", "1 : 2.0", true],
    ["12 : 00", "12", false],
    ["\\begin{pmatrix}0.5 & 1\\end{pmatrix}", "\\begin{pmatrix}\\frac12 & 1\\end{pmatrix}", true],
    ["\\begin{pmatrix}0.5 & 1\\end{pmatrix}", "\\begin{pmatrix}\\frac13 & 1\\end{pmatrix}", false],
    ["1/3", "1/3 + 10^{-7}", false], // exact forms are not rounded
    ["x = 28\\%", "0.28", true], // the percentage of an assigned value
    ["x = 28\\%", "0.27", false],
    ["x", "|x|", false], // Math-Verify: sympy's x - Abs(x) is not 0 (x may be negative)
    ["\\sqrt{x^2}", "x", false],
  ])("\\boxed{%s} against %j -> %s", async (answer, reference, correct) => {
    expect(await boxed(answer, reference)).toBe(correct);
  });

  it("gives each reason", async () => {
    expect(await compareMath("\\boxed{\\frac{6}{2}}", "3")).toMatchObject({
      correct: true,
      reason: "equivalent",
      how: "boxed",
    });
    expect(await compareMath("\\boxed{\\zzz}", "3")).toMatchObject({
      correct: false,
      reason: "answer unreadable",
    });
    expect(await compareMath("\\boxed{3}", "\\zzz")).toMatchObject({
      correct: false,
      reason: "reference unreadable",
    });
    expect(await compareMath("", "")).toMatchObject({ correct: false, reason: "no answer found" });
    for (const r of MathReasonSchema.options) expect(typeof r).toBe("string");
    expect(MathReasonSchema.options).toEqual([
      "equivalent",
      "different",
      "no answer found",
      "answer unreadable",
      "no reference",
      "reference unreadable",
    ]);
  });

  it("takes a reply identical to the reference as it is", async () => {
    expect(await compareMath("  odd $n$ ", "odd $n$")).toEqual({
      correct: true,
      extracted: "odd $n$",
      reason: "equivalent",
      how: "whole",
    });
  });

  it("reads the last number of a span that does not parse", async () => {
    expect((await compareMath("how many $? just about 12.75$", "12.75")).correct).toBe(true);
    expect((await compareMath("how many $? just about 12.75$", "12.7")).correct).toBe(false);
  });

  it("is the math scorer at version 3 (profile default) and leaves a blank reference unscored", async () => {
    const s = mathScorerV2();
    expect([s.id, s.version, s.profile]).toEqual(["math", 3, "default"]);
    expect(await s.score("\\boxed{3}", { question: "q", expected: "  " }, signal)).toMatchObject({
      correct: null,
      reason: "no reference",
    });
  });
});
