// The structural rules of math v2 (math-compare.ts, math-value.ts), each beside its near miss,
// so that weakening any one rule turns a row red.
import { describe, expect, it } from "vitest";
import { replaceCommand } from "./math-latex.ts";
import { compareMath } from "./math-v2.ts";
import { isBareList, parseMath } from "./math-value.ts";

const same = async (answer: string, reference: string) =>
  (await compareMath(`\\boxed{${answer}}`, reference)).correct;

describe("structure", () => {
  it.each([
    // assignments: the name goes, the value stays; chains give their last value
    ["x = 3", "3", true],
    ["3", "x = 3", true],
    ["x = 1 + 2 = 3", "3", true],
    ["7 = 11a + c", "11a+c", false], // a number is no name
    ["a + 3z = 0", "0", false], // an expression is no name
    ["(p, q) = (3, 2)", "(3,2)", true],
    ["f(x) = 1", "1", true],
    ["\\sin(x) = 1", "1", false], // a function of the engine is no name
    ["5 \\times 6 \\times 4 = 120", "120", true], // a computation gives its value
    ["5 \\times 6 = 31", "30", false],
    // equations: the same assignment, or proportional sides
    ["y = 2x + 1", "y = 1 + 2x", true],
    ["y = 2x + 1", "y = 2x + 2", false],
    ["2x + 4y - 3 = 0", "y = -\\frac{1}{2}x + \\frac{3}{4}", true],
    ["2x + 4y - 3 = 0", "y = -\\frac{1}{2}x + 1", false],
    ["2 = x", "x = 2", true],
    ["-34x - 45y + 20z - 100 = 0", "34x+45y-20z+100=0", true], // a factor of -1
    // inequalities: flips, factors, chains, and intervals
    ["5 \\geq x", "x \\le 5", true],
    ["-x > -1", "x < 1", true], // a negative factor turns the sign
    ["-x > -1", "x > 1", false],
    ["2x < 2", "x < 1", true],
    ["x \\neq 3", "x != 3", true],
    ["x \\neq 3", "x != 4", false],
    ["x < 3", "x = 3", false],
    ["1 < x < 2", "1 < x < 2", true],
    ["1 < x < 2", "1 < x < 3", false],
    ["1 < x \\le 2", "(1, 2]", true],
    ["1 < x < 2", "(1, 2]", false],
    ["-2 \\le x \\le 7", "[-2, 7]", true],
    // intervals and unions
    ["(1, 2]", "(1, 2]", true],
    ["(1, 2]", "(1, 3]", false],
    ["[1, 2]", "(1, 2]", false],
    ["(1, 2) \\cup (3, 4)", "(3, 4) \\cup (1, 2)", true],
    ["(1, 2) \\cup (3, 4)", "(1, 2) \\cup (3, 5)", false],
    ["x \\in (0, 1)", "(0, 1)", true],
    // tuples, sets and bare lists
    ["(1, 2, 3)", "(1, 2, 3)", true],
    ["(1, 2)", "(1, 2, 3)", false],
    ["\\{1, 2\\}", "\\{2, 1\\}", true],
    ["\\{1, 2\\}", "\\{1, 2, 3\\}", false],
    ["\\{1, 2\\}", "\\{1, 2, 2\\}", true], // as sets they are equal
    ["\\{1, 1\\}", "\\{1, 2\\}", false], // one element matches one
    ["2, 1", "(1, 2)", true], // a bare list against a tuple, in sorted order
    ["(2, 1)", "1, 2", false],
    ["1, 2", "1; 2", true],
    ["\\frac{1}{2}, 3", "3, 0.5", true],
    // matrices
    [
      "\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}",
      "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
      true,
    ],
    ["\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}", "\\begin{pmatrix}1&2\\end{pmatrix}", false],
    ["\\begin{pmatrix}1\\\\2\\end{pmatrix}", "\\begin{pmatrix}1&2\\end{pmatrix}", false],
    [
      "\\begin{pmatrix}1 & 0\\\\0 & 1\\end{pmatrix} + \\begin{pmatrix}1 & 0\\\\0 & 1\\end{pmatrix}",
      "\\begin{pmatrix}2&0\\\\0&2\\end{pmatrix}",
      true,
    ],
    ["\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}", "(1, 2)", false],
    // ratios, plus-minus, text
    ["7 : 32", "7:32", true],
    ["7 : 32", "7:33", false],
    ["12 : 00", "1:00", false],
    ["\\pm 2", "\\{-2, 2\\}", true],
    ["\\pm 2", "2", false],
    ["\\text{odd}", "odd", true],
    ["\\text{odd}", "\\text{even}", false],
    // values
    ["x^2 - x^2", "0", true],
    ["\\sqrt[3]{8}", "2", true],
    ["\\log_2 8", "3", true],
    ["\\binom{5}{2}", "10", true],
    ["5!", "120", true],
    ["\\frac{3}{4}i", "0.75i", true],
    ["\\frac{3}{4}i", "0.75", false],
    ["f(x)", "f(y)", false],
    ["\\infty", "\\infty", true],
    ["1.5 \\times 10^3", "1500", true],
    ["1500.0000001", "1500", true], // rounded to 6 places
    ["1500.00001", "1500", false],
    ["1/3", "0.333333", true],
    ["1/3", "0.3333", false],
    ["1/3", "1/3 + 10^{-12}", true], // exact forms agree to 1e-9
    ["1/3", "1/3 + 10^{-6}", false],
  ])("\\boxed{%s} against %j -> %s", async (answer, reference, correct) => {
    expect(await same(answer, reference)).toBe(correct);
  });

  it("compares percentages both ways round", async () => {
    expect(await same("28\\%", "28")).toBe(true);
    expect(await same("28\\%", "0.28")).toBe(true);
    expect(await same("28\\%", "0.29")).toBe(false);
    expect(await same("0.28", "28\\%")).toBe(true);
    expect(await same("28\\%", "28\\%")).toBe(true);
    expect(await same("28\\%", "0.28\\%")).toBe(false); // both percent: no rescaling
  });
});

describe("parsing helpers", () => {
  it("tells a bare list from a bracketed one", () => {
    expect(isBareList("1, 2")).toBe(true);
    expect(isBareList("1; 2")).toBe(true);
    expect(isBareList("(1, 2)")).toBe(false);
    expect(isBareList("f(1, 2) + [3, 4]")).toBe(false);
    expect(isBareList("\\{1, 2\\}")).toBe(false);
    expect(isBareList("12")).toBe(false);
  });
  it("keeps the assigned value beside the whole", async () => {
    expect(await parseMath("x = 3")).toMatchObject({ json: ["Equal", "x", 3], assigned: 3 });
    expect((await parseMath("3"))?.assigned).toBeUndefined();
    expect(await parseMath("")).toBeNull();
    expect(await parseMath("\\zzz{")).toBeNull();
    expect(await parseMath("2.5")).toMatchObject({ decimal: true, percent: false });
    expect(await parseMath(".5")).toMatchObject({ json: 0.5, decimal: true });
    expect(await parseMath("5")).toMatchObject({ decimal: false });
  });
  it("replaces braced command arguments, leaving longer commands alone", () => {
    expect(replaceCommand("\\text{a} \\textbf{b}", "\\text", (a) => `<${a}>`)).toBe(
      "<a> \\textbf{b}",
    );
    expect(replaceCommand("\\text{a{b}c}d", "\\text", (a) => a)).toBe("a{b}cd");
    expect(replaceCommand("\\text x", "\\text", (a) => a)).toBe("\\text x");
    expect(replaceCommand("\\text{open", "\\text", (a) => `[${a}]`)).toBe("[open]");
  });
});
