import { describe, expect, it } from "vitest";
import { ScorerIdSchema, parseScorerId, scorerKind } from "./kinds.ts";

describe("the scorer kinds table", () => {
  it("parses only the known ids", () => {
    expect(parseScorerId("math")).toBe("math");
    expect(parseScorerId("Math")).toBeUndefined();
    expect(parseScorerId("")).toBeUndefined();
  });

  it.each([
    ["needsJudge", ["judge"]],
    ["runsCode", ["code"]],
    ["takesProfile", ["math"]],
    ["posesChoices", ["mc"]],
    ["readsItems", ["judge", "code"]],
  ] as const)("%s holds for %j only", (need, ids) => {
    expect(ScorerIdSchema.options.filter((id) => scorerKind(id)[need])).toEqual(ids);
  });

  it("gives an unknown id a plain kind that needs nothing", () => {
    const kind = scorerKind("fake");
    expect([kind.needsJudge, kind.runsCode, kind.takesProfile, kind.posesChoices]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(kind.instruction).toBe('End your reply with a line "Answer: <your final answer>".');
  });

  it("reads the strict verdict of any kind and the code result of code only", () => {
    const details = { strict: false, passed: 1, total: 2, timeMs: 5, firstFailure: null };
    expect(scorerKind("mc").readDetails(details)).toEqual({ strict: false });
    expect(scorerKind("code").readDetails(details)).toEqual({
      strict: false,
      code: { passed: 1, total: 2, skipped: 0, timeMs: 5, firstFailure: null },
    });
    expect(scorerKind("code").readDetails({ passed: "x" })).toEqual({});
  });
});
