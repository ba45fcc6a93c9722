// EvalPlus's per-case verdict (evalplus/eval/__init__.py unsafe_execute and _special_oracle.py),
// on plain values as the harness returns them.
import { describe, expect, it } from "vitest";
import { evalplusPasses } from "./evalplus-compare.ts";
import type { ExactValue } from "./exact-value.ts";
import { pyEquals, pyRepr } from "./exact-value.ts";

const int = (n: bigint | number) => ({ int: String(n) });
const float = (x: number) => ({ float: x });
type Task = { dataset: "humaneval" | "mbpp"; name: string; atol: number };
const he = (name: string, atol = 0): Task => ({ dataset: "humaneval", name, atol });
const mbpp = (name: string, atol = 0): Task => ({ dataset: "mbpp", name, atol });
const pass = (o: Task, out: ExactValue, exp: ExactValue, args: ExactValue[] = []) =>
  evalplusPasses(o, args, out, exp);

describe("EvalPlus's comparison", () => {
  it("is Python's == : ints exact past 2^53, int against float exact, a list never a tuple", () => {
    const big = 2n ** 53n + 1n;
    expect(pyEquals(int(big), int(big))).toBe(true);
    expect(pyEquals(int(big), float(2 ** 53))).toBe(false);
    expect(pyEquals(int(2), float(2))).toBe(true);
    expect(pyEquals(true, int(1))).toBe(true);
    expect(pyEquals([int(1)], { tuple: [int(1)] })).toBe(false);
    expect(pyEquals({ set: [int(1), int(2)] }, { set: [int(2), int(1)] })).toBe(true);
    expect(pyEquals({ dict: [[int(1), "a"]] }, { dict: [["1", "a"]] })).toBe(false);
    expect(pyEquals(float(NaN), float(NaN))).toBe(false);
  });

  it("allows 1e-6 (or the task's atol) only where the expected value is floats", () => {
    expect(pass(he("f"), float(0.3000001), float(0.3))).toBe(true);
    expect(pass(he("f"), float(0.30001), float(0.3))).toBe(false);
    expect(pass(he("f"), [float(1), float(2.0000001)], [float(1), float(2)])).toBe(true);
    // Not floats: a tuple of a float and an int is compared exactly.
    expect(
      pass(he("f"), { tuple: [float(1.0000001), int(0)] }, { tuple: [float(1), int(0)] }),
    ).toBe(false);
    // With the task's atol, the types must match: an int is not a float's near neighbour.
    expect(pass(he("f", 0.01), int(3), float(3.001))).toBe(false);
    expect(pass(he("f", 0.01), float(3.0), float(3.001))).toBe(true);
  });

  it("applies the special oracles", () => {
    // HumanEval/32: any root of the polynomial within atol.
    const xs: ExactValue = [int(-6), int(11), int(-6), int(1)];
    expect(pass(he("find_zero", 1e-4), float(3.0), float(1.0), [xs])).toBe(true);
    expect(pass(he("find_zero", 1e-4), float(2.5), float(1.0), [xs])).toBe(false);
    expect(
      pass(mbpp("similar_elements"), { tuple: [int(5), int(4)] }, { tuple: [int(4), int(5)] }),
    ).toBe(true);
    expect(pass(mbpp("check_str"), "a match", true)).toBe(true);
    expect(pass(mbpp("check_str"), null, true)).toBe(false);
    expect(pass(mbpp("sum_div"), int(0), int(7))).toBe(true);
    expect(pass(mbpp("digit_distance_nums"), int(7), int(1), [int(123), int(256)])).toBe(true);
  });

  it("writes values as Python would in a failure", () => {
    expect(pyRepr([{ tuple: [int(1)] }, { set: [] }, float(2), null, "it's"])).toBe(
      "[(1,), set(), 2.0, None, 'it\\'s']",
    );
  });
});
