import { describe, expect, it } from "vitest";
import { stdoutMatches } from "./stdio-compare.ts";

describe("LiveCodeBench's stdout comparison", () => {
  it.each([
    ["3\n", "3", true],
    ["  3  \n\n", "3\n", true],
    ["1 2\n3", "1 2\n3\n", true],
    ["1.0 2", "1 2.00", true],
    ["1e2", "100", true],
    ["-0.0", "0", true],
    ["Yes", "yes", false],
    ["1 2", "1  2", true],
    ["1\n2", "1 2", false],
    ["0.1", "0.10000000001", false],
    ["nan", "nan", true],
    ["nan", "NaN", false],
    ["inf", "Infinity", true],
    ["12345678901234567890123", "12345678901234567890124", false],
    ["12345678901234567890123", "12345678901234567890123.0", true],
    ["1_000", "1000", true],
    ["0x10", "16", false],
  ])("%j against %j: %s", (actual, expected, same) => {
    expect(stdoutMatches(actual, expected, "livecodebench")).toBe(same);
  });

  it("keeps the default comparison strict about inner spacing and numbers' forms", () => {
    expect(stdoutMatches("1.0", "1", "lines")).toBe(false);
    expect(stdoutMatches("3  \n\n", "3", "lines")).toBe(true);
    expect(stdoutMatches(" 3", "3", "lines")).toBe(false);
  });
});
