// parseMath and the value comparison (math-value.ts) on their own: what each answer parses to,
// what it says of itself (decimal, percent, the value it assigns), and equality by value.
import { beforeAll, describe, expect, it } from "vitest";
import type { ComputeEngine } from "@cortex-js/compute-engine";
import type { Json } from "./math-value.ts";
import {
  computeEngine,
  isBareList,
  numeric,
  parseMath,
  sameValue,
  unknowns,
} from "./math-value.ts";

let ce: ComputeEngine;
beforeAll(async () => {
  ce = await computeEngine();
});

describe("parseMath", () => {
  it.each<[string, Json, { decimal?: boolean; percent?: boolean; assigned?: Json }]>([
    ["3", 3, {}],
    ["0.5", 0.5, { decimal: true }],
    [".5", 0.5, { decimal: true }],
    ["1.0", 1, { decimal: true }],
    ["50%", 50, { percent: true }],
    [String.raw`\frac{1}{3}`, ["Rational", 1, 3], {}],
    ["x = 3", ["Equal", "x", 3], { assigned: 3 }],
    ["x_1 = 4", ["Equal", "x_1", 4], { assigned: 4 }],
    ["(p,q)=(3,2)", ["Equal", ["Tuple", "p", "q"], ["Tuple", 3, 2]], { assigned: ["Tuple", 3, 2] }],
    ["f(x) = 2x", ["Equal", ["f", "x"], ["Multiply", 2, "x"]], { assigned: ["Multiply", 2, "x"] }],
    ["|AB| = 5", ["Equal", ["Abs", ["Multiply", "A", "B"]], 5], { assigned: 5 }],
    [
      String.raw`S_1 : S = 7 : 32`,
      ["Colon", "S_1", ["Colon", ["Equal", "S", 7], 32]],
      { assigned: ["Colon", 7, 32] },
    ],
    [
      String.raw`\frac{NO}{BO} = 2`,
      ["Equal", ["Divide", ["Multiply", "N", "O"], ["Multiply", "B", "O"]], 2],
      { assigned: 2 },
    ],
    [
      String.raw`\overline{AB} = 5`,
      ["Equal", ["Conjugate", ["Multiply", "A", "B"]], 5],
      { assigned: 5 },
    ],
    ["f'(x) = 2", ["Equal", ["Apply", ["Derivative", "f", 1], "x"], 2], { assigned: 2 }],
    ["x_{12} = 3", ["Equal", "x_12", 3], { assigned: 3 }],
    ["x = 5 + 1 = 6", ["Equal", "x", 6, 6], { assigned: 6 }],
    // not assignments: an expression, a number or an engine function on the left
    ["a+b=3", ["Equal", ["Add", "a", "b"], 3], {}],
    ["7 = 11a + c", ["Equal", 7, ["Add", ["Multiply", 11, "a"], "c"]], {}],
    ["3x = 6", ["Equal", ["Multiply", 3, "x"], 6], {}],
    [String.raw`\sin(x) = 1`, ["Equal", ["Sin", "x"], 1], {}],
    [String.raw`x \le 3 = 2`, ["And", ["LessEqual", "x", 3], ["Equal", 3, 2]], {}],
    [String.raw`x \ge 3 = 2`, ["And", ["LessEqual", 3, "x"], ["Equal", 3, 2]], {}],
    [String.raw`x \neq 3 = 2`, ["And", ["NotEqual", "x", 3], ["Equal", 3, 2]], {}],
    ["x > 3 = 2", ["And", ["Less", 3, "x"], ["Equal", 3, 2]], {}],
    // a computation without unknowns gives its last value
    [String.raw`5 \times 6 = 30`, ["Equal", 30, 30], { assigned: 30 }],
    [String.raw`5 \times 6 = 31`, ["Equal", 30, 31], { assigned: 31 }],
    ["x < 3", ["Less", "x", 3], {}],
    [String.raw`x \neq 3`, ["NotEqual", "x", 3], {}],
    // both branches of \pm; bare lists are sets; brackets keep their kind
    [String.raw`2 \pm 1`, ["Set", 3, 1], {}],
    ["1, 2, 3", ["Set", 1, 2, 3], {}],
    ["1; 2", ["Set", 1, 2], {}],
    [String.raw`\{1,2\}`, ["Set", 1, 2], {}],
    ["(1,2)", ["Tuple", 1, 2], {}],
    ["[1,2]", ["List", 1, 2], {}],
    ["f(1,2)", ["f", 1, 2], {}],
    // a sum or multiple of matrices is its value
    [
      String.raw`\begin{pmatrix}1&2\end{pmatrix} + \begin{pmatrix}1&1\end{pmatrix}`,
      ["List", ["List", 2, 3]],
      {},
    ],
    [String.raw`2\begin{pmatrix}1&2\end{pmatrix}`, ["List", ["List", 2, 4]], {}],
    ["e", "ExponentialE", {}],
    ["(3)", 3, {}],
    ["ab", ["Multiply", "a", "b"], {}], // letters without "=" assign nothing
    ["x + 1", ["Add", "x", 1], {}],
    // read as written: only a sum or multiple of matrices is worked out
    ["2x + 3x", ["Add", ["Multiply", 2, "x"], ["Multiply", 3, "x"]], {}],
    [String.raw`x = y \le 4`, ["And", ["Equal", "x", "y"], ["LessEqual", "y", 4]], {}],
    ["1 + 1 = 3 = 4", ["Equal", 2, 3, 4], { assigned: 4 }],
    [
      String.raw`\begin{pmatrix}1&2\end{pmatrix} - \begin{pmatrix}1&1\end{pmatrix}`,
      ["List", ["List", 0, 1]],
      {},
    ],
    [String.raw`-\begin{pmatrix}1&2\end{pmatrix}`, ["List", ["List", -1, -2]], {}],
    [String.raw`\begin{pmatrix}1&2\end{pmatrix}`, ["Matrix", ["List", ["List", 1, 2]]], {}],
  ])("%s parses to %j", async (raw, json, extra) => {
    const v = await parseMath(raw);
    expect(v).not.toBeNull();
    expect(v!.json).toEqual(json);
    expect(v!.decimal).toBe(extra.decimal ?? false);
    expect(v!.percent).toBe(extra.percent ?? false);
    expect(v!.assigned).toEqual(extra.assigned);
  });

  it.each(["", "$$", String.raw`\frac{`, "=3", "x =", String.raw`\pm`, String.raw`x = 3 \zzz`])(
    "%j does not parse",
    async (raw) => {
      expect(await parseMath(raw)).toBeNull();
    },
  );

  it("parses a repeated text once, and keeps at most 1024 texts (the oldest go first)", async () => {
    // A reward batch repeats each reference per rollout: the first parse answers the rest.
    const first = await parseMath("x = 7");
    expect(await parseMath("x = 7")).toBe(first);
    // 1024 texts no other test parses: the engine's test files share this module (isolate: false),
    // and a text another file already parsed (fast-check's -1e6..1e6 often gives 1000000) would
    // be found, not added, leaving "x = 7" in.
    const unseen = (i: number) => String(7_000_000 + i);
    for (let i = 0; i < 1024; i++) await parseMath(unseen(i));
    const again = await parseMath("x = 7");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    // The newest texts are still kept.
    expect(await parseMath(unseen(1023))).toBe(await parseMath(unseen(1023)));
  });
});

describe("isBareList", () => {
  it.each([
    ["1, 2", true],
    ["1; 2", true],
    ["[1,2], 3", true],
    ["(1,2), (3,4)", true],
    ["(1, 2)", false],
    ["f(1,2)", false],
    [String.raw`\{1, 2\}`, false],
    ["{1,2}", false],
    ["((1,2),3)", false],
    ["a", false],
  ])("%s: %s", (text, want) => {
    expect(isBareList(text)).toBe(want);
  });
});

describe("values", () => {
  const t = { precision: 6, relTol: 1e-9 };
  it("evaluates at a point, and gives null off the real and complex numbers", () => {
    expect(numeric(ce, ["Add", "x", 1], { x: 2 })).toEqual([3, 0]);
    expect(numeric(ce, ["Sqrt", -4], {})).toEqual([0, 2]);
    expect(numeric(ce, ["Divide", 1, 0], {})).toBeNull();
    expect(numeric(ce, 5, {})).toEqual([5, 0]);
    expect(numeric(ce, ["Ln", 0], {})).toBeNull(); // minus infinity is no value
    expect(numeric(ce, { sym: 3 }, {})).toBeNull(); // malformed: the engine throws
  });

  it("names the unknowns of an expression", () => {
    expect(unknowns(ce, ["Add", "x", ["Multiply", 2, "y"]]).sort()).toEqual(["x", "y"]);
    expect(unknowns(ce, ["Add", 1, 2])).toEqual([]);
    expect(unknowns(ce, { sym: 3 })).toEqual([]); // malformed: the engine throws
  });

  it.each<[string, Json, Json, boolean, boolean]>([
    ["1/3 and 2/6", ["Rational", 1, 3], ["Divide", 2, 6], false, true],
    ["1/3 and 0.333333 exactly", ["Rational", 1, 3], 0.333333, false, false],
    ["1/3 and 0.333333 as decimals", ["Rational", 1, 3], 0.333333, true, true],
    ["1/3 and 0.3333 as decimals (4 places)", ["Rational", 1, 3], 0.3333, true, false],
    ["a relative tolerance on large values", 1e12, 1e12 + 1e-3, false, true],
    ["1 and 1 + 1e-6", 1, 1.000001, false, false],
    ["i and i", ["Sqrt", -1], "ImaginaryUnit", false, true],
    ["i and -i", ["Sqrt", -1], ["Negate", "ImaginaryUnit"], false, false],
    [
      "(x+1)^2 and x^2+2x+1",
      ["Power", ["Add", "x", 1], 2],
      ["Add", ["Power", "x", 2], ["Multiply", 2, "x"], 1],
      false,
      true,
    ],
    ["x and y", "x", "y", false, false],
    // Math-Verify's sympy takes a symbol as complex: x - |x| is not 0, nor sqrt(x^2) - x
    ["x and |x|", "x", ["Abs", "x"], false, false],
    ["sqrt(x^2) and x", ["Sqrt", ["Power", "x", 2]], "x", false, false],
    ["ln(x^2) and 2 ln x", ["Ln", ["Power", "x", 2]], ["Multiply", 2, ["Ln", "x"]], false, false],
    ["|x| and sqrt(x^2)", ["Abs", "x"], ["Sqrt", ["Power", "x", 2]], false, true],
    [
      "x^(1/3) and the cube root of x",
      ["Power", "x", ["Rational", 1, 3]],
      ["Root", "x", 3],
      false,
      true,
    ],
    ["x + y and y + x", ["Add", "x", "y"], ["Add", "y", "x"], false, true],
    ["1/0 and 1/0 (no value, the same text)", ["Divide", 1, 0], ["Divide", 1, 0], false, true],
    ["1/0 and 2/0 (no value)", ["Divide", 1, 0], ["Divide", 2, 0], false, false],
    ["1/0 and 1", ["Divide", 1, 0], 1, false, false],
    ["1 and 1/0", 1, ["Divide", 1, 0], false, false],
  ])("%s", (_name, a, b, decimal, want) => {
    expect(sameValue(ce, a, b, t, decimal)).toBe(want);
  });
});
