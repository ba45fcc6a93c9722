/**
 * The function-test comparison, in the engine: docs/code-scoring.md's rules on the harness's plain
 * data.
 */
import { describe, expect, it } from "vitest";
import type { PyValue } from "./value.ts";
import { equalsExpected, pyValueSchema } from "./value.ts";
import { parseJsonExact, stringifyExact } from "./tests-schema.ts";

const int = (n: number | string | bigint): PyValue => ({ int: String(n) });
const float = (x: number | string): PyValue => ({ float: x });

describe("equalsExpected", () => {
  it("numbers: ints exactly, floats within 1e-9, bool as Python's ==", () => {
    expect(equalsExpected(int(3), 3)).toBe(true);
    expect(equalsExpected(int(3), 4)).toBe(false);
    expect(equalsExpected(int("123456789012345678901234567890"), 1)).toBe(false);
    expect(equalsExpected(float(0.30000000000000004), 0.3)).toBe(true);
    expect(equalsExpected(float(0.3001), 0.3)).toBe(false);
    expect(equalsExpected(float(3), 3)).toBe(true);
    expect(equalsExpected(int(3), 3.0000000001)).toBe(true);
    expect(equalsExpected(float("nan"), 0)).toBe(false);
    expect(equalsExpected(true, true)).toBe(true);
    expect(equalsExpected(true, 1)).toBe(true);
    expect(equalsExpected(int(1), true)).toBe(true);
    expect(equalsExpected(false, true)).toBe(false);
    expect(equalsExpected("3", 3)).toBe(false);
  });

  it("lists and tuples alike, dicts by key, a set against a list as sorted", () => {
    expect(equalsExpected([int(0), int(1)], [0, 1])).toBe(true);
    expect(equalsExpected({ tuple: [int(0), int(1)] }, [0, 1])).toBe(true);
    expect(equalsExpected([int(0)], [0, 1])).toBe(false);
    expect(
      equalsExpected(
        {
          dict: [
            ["a", int(1)],
            ["1", "x"],
          ],
        },
        { a: 1, 1: "x" },
      ),
    ).toBe(true);
    expect(equalsExpected({ dict: [["a", int(1)]] }, { a: 2 })).toBe(false);
    expect(
      equalsExpected(
        {
          dict: [
            ["a", int(1)],
            ["b", int(2)],
          ],
        },
        { a: 1 },
      ),
    ).toBe(false);
    expect(equalsExpected({ set: [int(3), int(1), int(2)] }, [1, 2, 3])).toBe(true);
    expect(equalsExpected({ set: ["b", "a"] }, ["a", "b"])).toBe(true);
    expect(equalsExpected({ set: [int(1), "a"] }, [1, "a"])).toBe(false);
    expect(equalsExpected("abc", "abc")).toBe(true);
    expect(equalsExpected(null, null)).toBe(true);
    expect(equalsExpected(null, 0)).toBe(false);
    expect(equalsExpected([int(1)], { 0: 1 })).toBe(false);
  });

  it("reads only the harness's encoding: anything else is not a value", () => {
    for (const forged of [
      { int: "3", eq: true },
      { int: "3.5" },
      { passed: true },
      3,
      { float: "1e9999" },
    ])
      expect(pyValueSchema.safeParse(forged).success, JSON.stringify(forged)).toBe(false);
    expect(
      pyValueSchema.safeParse([{ dict: [["k", { set: [{ int: "1" }] }]] }, null]).success,
    ).toBe(true);
  });

  it("compares an integer past 2^53 exactly, read from the tests without rounding", () => {
    const tests = parseJsonExact('{"args":[9007199254740993],"expected":18014398509481987}');
    const { args, expected } = tests as { args: unknown[]; expected: unknown };
    expect(stringifyExact(args)).toBe("[9007199254740993]");
    expect(equalsExpected(int(18014398509481987n), expected)).toBe(true);
    expect(equalsExpected(int(18014398509481986n), expected)).toBe(false);
    expect(equalsExpected(int(18014398509481988n), expected)).toBe(false);
    expect(equalsExpected(true, expected)).toBe(false);
    expect(equalsExpected([int(18014398509481987n)], parseJsonExact("[18014398509481987]"))).toBe(
      true,
    );
  });
});
