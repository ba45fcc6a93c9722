import { describe, expect, it } from "vitest";
import { deepEqual } from "./equal.ts";

describe("deepEqual", () => {
  it.each([
    [1, 1, true],
    [1, 2, false],
    ["all", "all", true],
    [[0, 1], [0, 1], true],
    [[0, 1], [1, 0], false],
    [[0], [0, 1], false],
    [{ a: 1, b: [2] }, { b: [2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [[], {}, false],
    [null, {}, false],
    [NaN, NaN, true],
  ])("%j vs %j -> %s", (a, b, equal) => {
    expect(deepEqual(a, b)).toBe(equal);
  });
});
