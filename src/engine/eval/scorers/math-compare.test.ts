// The comparison rules of math-compare.ts on MathJSON written by hand (the shapes parseMath gives),
// so that each rule is pinned apart from the LaTeX reader: every row beside its near miss.
import { beforeAll, describe, expect, it } from "vitest";
import type { ComputeEngine } from "@cortex-js/compute-engine";
import { Comparer } from "./math-compare.ts";
import { VERSION_2 } from "./math-profiles.ts";
import type { Json } from "./math-value.ts";
import { computeEngine } from "./math-value.ts";

let ce: ComputeEngine;
beforeAll(async () => {
  ce = await computeEngine();
});
const exact = () => new Comparer(ce, { precision: 6, relTol: 1e-9 }, false, VERSION_2.rules);
const same = (a: Json, b: Json) => exact().same(a, b);

const open = (x: Json): Json => ["Open", x];
const nest = (levels: number, x: Json): Json => (levels === 0 ? x : ["Set", nest(levels - 1, x)]);

describe("Comparer", () => {
  it.each<[string, Json, Json, boolean]>([
    // assignments: a name on the left gives its value; the last value of a chain
    ["x = 3 against 3", ["Equal", "x", 3], 3, true],
    ["3 against x = 3", 3, ["Equal", "x", 3], true],
    ["x = 5 + 6 = 11 against 11", ["Equal", "x", ["Add", 5, 6], 11], 11, true],
    ["x = 3 against 4", ["Equal", "x", 3], 4, false],
    ["f(x) = 2 against 2", ["Equal", ["f", "x"], 2], 2, true],
    ["Sin(x) = 2 is no assignment", ["Equal", ["Sin", "x"], 2], 2, false],
    ["a quoted string is no name", ["Equal", "'p'", 2], 2, false],
    ["AB = 5 (a product of names)", ["Equal", ["Multiply", "A", "B"], 5], 5, true],
    ["2x = 4 is no assignment", ["Equal", ["Multiply", 2, "x"], 4], 4, false],
    ["|AB| = 5", ["Equal", ["Abs", ["Multiply", "A", "B"]], 5], 5, true],
    ["a_1 = 5", ["Equal", ["Subscript", "a", 1], 5], 5, false], // 1 is no name
    ["(p, q) = (3, 2)", ["Equal", ["Tuple", "p", "q"], ["Tuple", 3, 2]], ["Tuple", 3, 2], true],
    [
      "(p, 1) = (3, 2) is no assignment",
      ["Equal", ["Tuple", "p", 1], ["Tuple", 3, 2]],
      ["Tuple", 3, 2],
      false,
    ],
    ["NO/BO = 2", ["Equal", ["Divide", "N", "B"], 2], 2, true],
    ["S1 : S = 7 : 32", ["Equal", ["Colon", "a", "b"], ["Colon", 7, 32]], ["Colon", 7, 32], true],
    ["an equation with one side", ["Equal", "x"], "x", false],
    // x in S is S
    ["x in {1, 2} against {2, 1}", ["Element", "x", ["Set", 1, 2]], ["Set", 2, 1], true],
    ["x in {1, 2} against {1, 3}", ["Element", "x", ["Set", 1, 2]], ["Set", 1, 3], false],
  ])("%s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    ["the same assignment", ["Equal", "y", ["Add", 1, 2]], ["Equal", "y", 3], true],
    [
      "sides proportional (x + y = 2 and 2x + 2y = 4)",
      ["Equal", ["Add", "x", "y"], 2],
      ["Equal", ["Add", ["Multiply", 2, "x"], ["Multiply", 2, "y"]], 4],
      true,
    ],
    [
      "a factor of -1 is the same equation",
      ["Equal", ["Subtract", "x", "y"], 0],
      ["Equal", ["Subtract", "y", "x"], 0],
      true,
    ],
    [
      "x + y = 0 is not x - y = 0",
      ["Equal", ["Add", "x", "y"], 0],
      ["Equal", ["Subtract", "x", "y"], 0],
      false,
    ],
    ["x = x is no equation of x = 1 (factor 0)", ["Equal", "x", "x"], ["Equal", "x", 1], false],
    ["x = 1 against x = x (dividing by zero)", ["Equal", "x", 1], ["Equal", "x", "x"], false],
    [
      "x = 1 is not x^2 = 1 (no one factor)",
      ["Equal", "x", 1],
      ["Equal", ["Power", "x", 2], 1],
      false,
    ],
    ["equations without unknowns", ["Equal", 1, 1], ["Equal", 2, 2], false],
  ])("equations: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    ["x < 1 against 1 > x", ["Less", "x", 1], ["Greater", 1, "x"], true],
    ["x <= 1 against 1 >= x", ["LessEqual", "x", 1], ["GreaterEqual", 1, "x"], true],
    ["x < 1 against 2x < 2", ["Less", "x", 1], ["Less", ["Multiply", 2, "x"], 2], true],
    [
      "x < 1 is not -x < -1 (a negative factor)",
      ["Less", "x", 1],
      ["Less", ["Negate", "x"], -1],
      false,
    ],
    ["x < 1 is not x <= 1", ["Less", "x", 1], ["LessEqual", "x", 1], false],
    ["x != 1 against 1 != x (any factor)", ["NotEqual", "x", 1], ["NotEqual", 1, "x"], true],
    ["x < 1 against a number", ["Less", "x", 1], 1, false],
    ["a number against x < 1", 1, ["Less", "x", 1], false],
    ["x < 1 is not 0 < x < 1", ["Less", "x", 1], ["Less", 0, "x", 1], false],
    ["chains compare side by side", ["Less", 1, "x", 2], ["Less", 1, "x", ["Add", 1, 1]], true],
    ["chains of other names", ["Less", 1, "x", 2], ["Less", 1, "y", 2], false],
    ["no unknowns: 1 < 2 against 2 < 3", ["Less", 1, 2], ["Less", 2, 3], false],
  ])("relations: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    [
      "(0, 1] against (0, 1]",
      ["Interval", open(0), 1],
      ["Interval", open(0), ["Divide", 2, 2]],
      true,
    ],
    ["(0, 1] is not [0, 1]", ["Interval", open(0), 1], ["Interval", 0, 1], false],
    ["[0, 1) is not [0, 1]", ["Interval", 0, open(1)], ["Interval", 0, 1], false],
    ["(0, 1] is not (0, 2]", ["Interval", open(0), 1], ["Interval", open(0), 2], false],
    ["(0, 1] is not (1, 1]", ["Interval", open(0), 1], ["Interval", open(1), 1], false],
    ["[0, 1] against the list [0, 1]", ["Interval", 0, 1], ["List", 0, 1], true],
    ["the list [0, 1] against [0, 1]", ["List", 0, 1], ["Interval", 0, 1], true],
    ["(0, 1) against the pair (0, 1)", ["Interval", open(0), open(1)], ["Tuple", 0, 1], true],
    ["the pair (0, 1) against (0, 1)", ["Tuple", 0, 1], ["Interval", open(0), open(1)], true],
    ["[0, 1] is not the pair (0, 1)", ["Interval", 0, 1], ["Tuple", 0, 1], false],
    ["(0, 1] is not the pair (0, 1)", ["Interval", open(0), 1], ["Tuple", 0, 1], false],
    ["[0, 1) is not the pair (0, 1)", ["Interval", 0, open(1)], ["Tuple", 0, 1], false],
    ["(0, 1) is not a triple", ["Interval", open(0), open(1)], ["Tuple", 0, 1, 2], false],
    ["[0, 1] is not a list of three", ["Interval", 0, 1], ["List", 0, 1, 2], false],
    ["an interval with one bound", ["Interval", 0], ["Interval", 0, 1], false],
    ["an interval is not a number", ["Interval", 0, 1], 1, false],
  ])("intervals: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    ["0 < x < 1 against (0, 1)", ["Less", 0, "x", 1], ["Interval", open(0), open(1)], true],
    ["(0, 1) against 0 < x < 1", ["Interval", open(0), open(1)], ["Less", 0, "x", 1], true],
    ["0 < x < 1 is not [0, 1]", ["Less", 0, "x", 1], ["Interval", 0, 1], false],
    ["0 <= x <= 1 against the list [0, 1]", ["LessEqual", 0, "x", 1], ["List", 0, 1], true],
    ["0 < x < 1 against the pair (0, 1)", ["Less", 0, "x", 1], ["Tuple", 0, 1], true],
    ["0 < x < 1 is not (0, 2)", ["Less", 0, "x", 1], ["Interval", open(0), open(2)], false],
    ["0 < x < 1 is not (-1, 1)", ["Less", 0, "x", 1], ["Interval", open(-1), open(1)], false],
    [
      "0 < x + 1 < 1 is no range",
      ["Less", 0, ["Add", "x", 1], 1],
      ["Interval", open(0), open(1)],
      false,
    ],
    [
      "1 > x > 0 (And of two) against (0, 1)",
      ["And", ["Greater", "x", 0], ["Less", "x", 1]],
      ["Interval", open(0), open(1)],
      true,
    ],
    [
      "0 < x <= 1 (And of two) against (0, 1]",
      ["And", ["Less", 0, "x"], ["LessEqual", "x", 1]],
      ["Interval", open(0), 1],
      true,
    ],
    [
      "0 < x <= 1 is not [0, 1)",
      ["And", ["Less", 0, "x"], ["LessEqual", "x", 1]],
      ["Interval", 0, open(1)],
      false,
    ],
    [
      "0 <= x < 1 against [0, 1)",
      ["And", ["LessEqual", 0, "x"], ["Less", "x", 1]],
      ["Interval", 0, open(1)],
      true,
    ],
    [
      "two names are no range",
      ["And", ["Less", 0, "x"], ["Less", "y", 1]],
      ["Interval", open(0), open(1)],
      false,
    ],
    [
      "a number in the middle is no range",
      ["And", ["Less", 0, 5], ["Less", 5, 1]],
      ["Interval", open(0), open(1)],
      false,
    ],
    [
      "!= is no range",
      ["And", ["NotEqual", 0, "x"], ["Less", "x", 1]],
      ["Interval", open(0), open(1)],
      false,
    ],
    [
      "x < 1 and x < 2 is no range",
      ["And", ["Less", "x", 1], ["Less", "x", 2]],
      ["Interval", open(1), open(2)],
      false,
    ],
    [
      "a chain of three parts is no range",
      ["And", ["Less", 0, "x", 1], ["Less", "x", 1]],
      ["Interval", open(0), open(1)],
      false,
    ],
    [
      "an And of three is no range",
      ["And", ["Less", 0, "x"], ["Less", "x", 1], ["Less", "x", 2]],
      ["Interval", open(0), open(1)],
      false,
    ],
    ["0 < x < 1 against a number", ["Less", 0, "x", 1], 1, false],
  ])("ranges: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    ["{1, 2} against {2, 1}", ["Set", 1, 2], ["Set", 2, 1], true],
    ["{1, 1} is not {1, 2}", ["Set", 1, 1], ["Set", 1, 2], false],
    ["{1, 2} is not {1, 2, 3}", ["Set", 1, 2], ["Set", 1, 2, 3], false],
    [
      "a union against a set",
      ["Union", ["Interval", 0, 1], ["Interval", 2, 3]],
      ["Set", ["Interval", 2, 3], ["Interval", 0, 1]],
      true,
    ],
    ["(1, 2) is not (2, 1)", ["Tuple", 1, 2], ["Tuple", 2, 1], false],
    ["(1, 2) against (1, 4/2)", ["Tuple", 1, 2], ["Tuple", 1, ["Divide", 4, 2]], true],
    ["(1, 2) is not (1, 2, 3)", ["Tuple", 1, 2], ["Tuple", 1, 2, 3], false],
    ["a sequence is ordered", ["Sequence", 1, 2], ["Sequence", 2, 1], false],
    ["a sequence against a tuple", ["Sequence", 1, 2], ["Tuple", 1, ["Add", 1, 1]], true],
    ["(1, 2) against the set {2, 1}: sorted", ["Tuple", 1, 2], ["Set", 2, 1], true],
    ["the set {2, 1} against (1, 2): sorted", ["Set", 2, 1], ["Tuple", 1, 2], true],
    ["(2, 1) is not the set {1, 2}", ["Tuple", 2, 1], ["Set", 1, 2], false],
    ["(-1, 10, 2) against {10, 2, -1}", ["Tuple", -1, 2, 10], ["Set", 10, 2, -1], true],
    ["a set is not a number", ["Set", 1], 1, false],
    ["a number is not a set", 1, ["Set", 1], false],
    ["7 : 32 against 7 : 32", ["Colon", 7, 32], ["Colon", 7, ["Multiply", 4, 8]], true],
    ["7 : 32 is not 14 : 64", ["Colon", 7, 32], ["Colon", 14, 64], false],
    ["7 : 32 is not 7/32", ["Colon", 7, 32], ["Divide", 7, 32], false],
    ["7/32 is not 7 : 32", ["Divide", 7, 32], ["Colon", 7, 32], false],
    ["an equation is not a number", ["Equal", ["Add", "x", 1], 0], -1, false],
  ])("collections: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    [
      "a matrix against its rows",
      ["Matrix", ["List", ["List", 1, 2], ["List", 3, 4]]],
      ["List", ["List", 1, ["Add", 1, 1]], ["List", 3, 4]],
      true,
    ],
    [
      "rows in order",
      ["Matrix", ["List", ["List", 1, 2], ["List", 3, 4]]],
      ["Matrix", ["List", ["List", 3, 4], ["List", 1, 2]]],
      false,
    ],
    [
      "one row fewer",
      ["Matrix", ["List", ["List", 1, 2], ["List", 3, 4]]],
      ["Matrix", ["List", ["List", 1, 2]]],
      false,
    ],
    ["a row against a number", ["List", ["List", 1, 2], 3], ["List", 3, ["List", 1, 2]], false],
    ["a vector in order", ["List", 1, 2, 3], ["List", 1, 2, ["Add", 1, 2]], true],
    ["a vector is not its reverse", ["List", 1, 2, 3], ["List", 3, 2, 1], false],
    ["a vector against a number", ["List", 1, 2, 3], 6, false],
  ])("matrices: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it.each<[string, Json, Json, boolean]>([
    ["a name ending in a quote", ["Equal", "p'", 2], 2, true],
    ["a quote opening a string", ["Equal", "'p", 2], 2, false],
    ["a_n = 5", ["Equal", ["Subscript", "a", "n"], 5], 5, true],
    ["fx(x) = 2 (a two-letter function)", ["Equal", ["fx", "x"], 2], 2, true],
    ["aBc(x) = 2 (capitals inside)", ["Equal", ["aBc", "x"], 2], 2, true],
    ["_f(x) = 2 is no name", ["Equal", ["_f", "x"], 2], 2, false],
    ["f'(x) = 2 is no name", ["Equal", ["f'", "x"], 2], 2, false],
    ["x = 5 + 6 = 12 gives its last value", ["Equal", "x", ["Add", 5, 6], 12], 12, true],
    [
      "x = 1 + 1 = 3 against x = 3: the last sides",
      ["Equal", "x", ["Add", 1, 1], 3],
      ["Equal", "x", 3],
      true,
    ],
    ["x = 3 against x = 1 + 1 = 3", ["Equal", "x", 3], ["Equal", "x", ["Add", 1, 1], 3], true],
    [
      "S = {1, 2} against S = {2, 1}: the same assignment",
      ["Equal", "S", ["Set", 1, 2]],
      ["Equal", "S", ["Set", 2, 1]],
      true,
    ],
    [
      "S = {1, 2} is not S = {3, 4}",
      ["Equal", "S", ["Set", 1, 2]],
      ["Equal", "S", ["Set", 3, 4]],
      false,
    ],
    ["x = 1 is not x = {2, 3}", ["Equal", "x", 1], ["Equal", "x", ["Set", 2, 3]], false],
    [
      "a large factor: x + y = 1 and 1e7 x + 1e7 y = 1e7",
      ["Equal", ["Add", "x", "y"], 1],
      ["Equal", ["Multiply", 1e7, ["Add", "x", "y"]], 1e7],
      true,
    ],
    ["1 < 2 against itself (no unknowns)", ["Less", 1, 2], ["Less", 1, 2], true],
    ["0 < x is not 0 < x < 1", ["Less", 0, "x"], ["Less", 0, "x", 1], false],
    ["1 < x < 2 is not 1 < x < 3", ["Less", 1, "x", 2], ["Less", 1, "x", 3], false],
    ["0 != x != 1 is no range", ["NotEqual", 0, "x", 1], ["List", 0, 1], false],
    [
      "an Or is no range",
      ["Or", ["Less", 0, "x"], ["Less", "x", 1]],
      ["Interval", open(0), open(1)],
      false,
    ],
    ["an And of names is no range", ["And", "p", "q"], ["Interval", open(0), open(1)], false],
    [
      "an And with a chain is no range",
      ["And", ["Less", 0, "x"], ["Less", "x", 1, 2]],
      ["Interval", open(0), open(1)],
      false,
    ],
    [
      "0 != x and x < 1 is not [0, 1)",
      ["And", ["NotEqual", 0, "x"], ["Less", "x", 1]],
      ["Interval", 0, open(1)],
      false,
    ],
    [
      "0 < x and x != 1 is not (0, 1]",
      ["And", ["Less", 0, "x"], ["NotEqual", "x", 1]],
      ["Interval", open(0), 1],
      false,
    ],
    ["0 < x < 1 is not [0, 1)", ["Less", 0, "x", 1], ["Interval", 0, open(1)], false],
    ["0 < x < 1 is not (0, 1]", ["Less", 0, "x", 1], ["Interval", open(0), 1], false],
    ["0 < x < 1 is not a triple", ["Less", 0, "x", 1], ["Tuple", 0, 1, 2], false],
    ["0 < x < 1 is not the set {0, 1}", ["Less", 0, "x", 1], ["Set", 0, 1], false],
    ["(0, 1) is not the list [0, 1]", ["Interval", open(0), open(1)], ["List", 0, 1], false],
    ["a list is not a set", ["List", 1, 2], ["Set", 2, 1], false],
    ["a list is not a tuple", ["List", 1, 2], ["Tuple", 1, 2], false],
    ["a list is not a longer one", ["List", 1, 2], ["List", 1, 2, 3], false],
    ["a tuple with an unknown against a set", ["Tuple", "x", 1], ["Set", 1, "x"], false],
  ])("more: %s", (_name, a, b, want) => {
    expect(same(a, b)).toBe(want);
  });

  it("gives up past eight levels of nesting along every path", () => {
    const wrap = (head: string, levels: number, x: Json): Json =>
      levels === 0 ? x : [head, wrap(head, levels - 1, x)];
    for (const head of ["Tuple", "List"]) {
      expect(same(wrap(head, 3, 1), wrap(head, 3, ["Add", 0, 1])), head).toBe(true);
      expect(same(wrap(head, 10, 1), wrap(head, 10, ["Add", 0, 1])), head).toBe(false);
    }
    const deep = (levels: number, x: Json): Json =>
      levels === 0 ? x : ["Interval", deep(levels - 1, x), 5];
    expect(same(deep(3, 1), deep(3, ["Add", 0, 1]))).toBe(true);
    expect(same(deep(10, 1), deep(10, ["Add", 0, 1]))).toBe(false);
  });

  it("gives up past eight levels of nesting instead of recursing on", () => {
    expect(same(nest(3, 1), nest(3, ["Add", 0, 1]))).toBe(true);
    expect(same(nest(8, 1), nest(8, ["Add", 0, 1]))).toBe(true);
    expect(same(nest(9, 1), nest(9, ["Add", 0, 1]))).toBe(false);
  });

  it("compares values last: by number, and by value at sample points", () => {
    expect(same(["Divide", 1, 3], ["Rational", 1, 3])).toBe(true);
    expect(
      same(["Power", ["Add", "x", 1], 2], ["Add", ["Power", "x", 2], ["Multiply", 2, "x"], 1]),
    ).toBe(true);
    expect(same(["Power", ["Add", "x", 1], 2], ["Add", ["Power", "x", 2], 1])).toBe(false);
    expect(same(0.3333333, ["Divide", 1, 3])).toBe(false); // no decimal rounding asked
    const decimal = new Comparer(ce, { precision: 6, relTol: 1e-9 }, true, VERSION_2.rules);
    expect(decimal.same(0.3333333, ["Divide", 1, 3])).toBe(true);
  });
});
