// normaliseMath and plainNumber (normalise.ts, the math scorer of version 1) on their own: each
// clean-up rule with the text it changes, and the numbers a plain expression denotes.
import { describe, expect, it } from "vitest";
import { normaliseMath, plainNumber } from "./normalise.ts";

describe("normaliseMath", () => {
  it.each([
    [String.raw`$5$`, "5"],
    [String.raw`\(5\)`, "5"],
    [String.raw`\[5\]`, "5"],
    [String.raw`\text{5 apples}`, "5"],
    [String.raw`\mathrm{cm}5`, "5"],
    [String.raw`\textbf{7}`, "7"],
    [String.raw`\frac{1}{2}`, "((1)/(2))"],
    [String.raw`\dfrac{1}{2}`, "((1)/(2))"],
    [String.raw`\tfrac12`, "((1)/(2))"],
    [String.raw`\frac {1} {2}`, "((1)/(2))"],
    [String.raw`\sqrt{2}`, "sqrt(2)"],
    [String.raw`\left(3\right)`, "(3)"],
    [String.raw`1\,000`, "1000"],
    [String.raw`1\!000`, "1000"],
    [String.raw`a\;b\:c\quad d~e`, "abc de"],
    [String.raw`2\cdot 3`, "2* 3"],
    [String.raw`2\times 3`, "2* 3"],
    [String.raw`6\div 2`, "6/ 2"],
    [String.raw`2\pi`, "2pi"],
    [String.raw`x^{2}`, "x^(2)"],
    [String.raw`{5}`, "5"],
    ["−3", "-3"],
    ["x = 5", "5"],
    ["a = b = 7", "7"],
    ["1,000,000", "1000000"],
    ["1,000.5", "1000.5"],
    ["12,34", "12,34"],
    ["$5", "5"],
    [String.raw`\$5`, "5"],
    ["£5", "5"],
    ["a €5", "a 5"],
    ["5 dollars", "5"],
    ["3 m^2", "3"],
    ["3 m ^(2)", "3"],
    ["4 cm²", "4"],
    ["5 m³", "5"],
    ["10 km/h", "10"],
    ["5.", "5"],
    ["  3; ", "3"],
    ["3:", "3"],
    ["  $5$  ", "5"],
    ["$$5$$", "5"],
    [String.raw`\mathrm{x}`, "x"],
    ["x^{10}", "x^(10)"],
    ["=5", "5"],
    // units in the singular as in the plural
    ...["dollar", "cent", "euro", "pound", "litre", "liter", "hour", "hr", "minute", "min"].map(
      (u) => [`1 ${u}`, "1"],
    ),
    ...["second", "sec", "day", "week", "year", "unit", "cup", "degree", "meter", "metre"].map(
      (u) => [`1 ${u}`, "1"],
    ),
    ["1 mile", "1"],
    ["2 Hours", "2"],
    ["2 hours 3 minutes", "2 3"],
    // a unit word inside another word stays
    ["5 mass", "5 mass"],
  ])("%s is %s", (raw, expr) => {
    expect(normaliseMath(raw)).toEqual({ expr, percent: false });
  });

  it.each([[String.raw`50\%`], ["50%"], ["50 percent"], ["50 Percent"]])(
    "%s is 50 percent",
    (raw) => {
      expect(normaliseMath(raw)).toEqual({ expr: "50", percent: true });
    },
  );
});

describe("plainNumber", () => {
  it.each<[string, number | null]>([
    ["3", 3],
    ["-3", -3],
    ["+3", 3],
    ["3.", 3],
    ["3.25", 3.25],
    [".5", 0.5],
    ["-.5", -0.5],
    ["1e3", 1000],
    ["1E-3", 0.001],
    ["2.5e+2", 250],
    [" 4 ", 4],
    ["((1)/(2))", 0.5],
    ["-1/4", -0.25],
    ["1.5/3", 0.5],
    ["3/1.5", 2],
    ["((-3)/(4))", -0.75],
    ["(1)/(+2)", 0.5],
    ["12", 12],
    ["12.75", 12.75],
    [".25", 0.25],
    ["1e12", 1e12],
    ["12/48", 0.25],
    ["1.25/5", 0.25],
    ["5/1.25", 4],
    ["x", null],
    ["1/x", null],
    ["3a", null],
    ["a3", null],
    ["1.2.3", null],
    ["e3", null],
    ["1e", null],
    ["1/2/3", null],
    ["1./2", null],
    ["", null],
  ])("%j is %j", (expr, want) => {
    expect(plainNumber(expr)).toBe(want);
  });
});
