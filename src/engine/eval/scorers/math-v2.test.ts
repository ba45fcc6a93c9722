import { describe, expect, it } from "vitest";
import { findMathAnswer, referenceAnswer } from "./math-extract.ts";
import { cleanAnswer } from "./math-latex.ts";
import { MATH_V2_CASES } from "../../../test-support/engine/eval/scorers/math-v2-cases.ts";
import { MathReasonSchema, compareMath, mathScorerV2 } from "./math-v2.ts";
import { MATH_CASES } from "../../../test-support/engine/eval/scorers/math-cases.ts";
import { createScorer, scorerVersions } from "./registry.ts";

const signal = new AbortController().signal;
const score = (answer: string, expected: string) =>
  mathScorerV2({}, 2).score(answer, { question: "q", expected }, signal);

describe("math scorer v2", () => {
  it.each(MATH_V2_CASES)("%j against %j -> %s", async (answer, expected, correct) => {
    expect((await score(answer, expected)).correct).toBe(correct);
  });
  it.each(MATH_CASES)("keeps version 1's verdict on %j against %j (%s)", async (a, e, c) => {
    expect((await score(a, e)).correct).toBe(c);
  });

  it("says why: no answer found, no reference, equivalent, different", async () => {
    expect(await score("I cannot tell.", "3")).toMatchObject({
      correct: false,
      extracted: null,
      reason: "no answer found",
    });
    expect(await score("\\boxed{3}", "")).toMatchObject({ correct: null, reason: "no reference" });
    expect(await score("\\boxed{3}", "3")).toMatchObject({ correct: true, reason: "equivalent" });
    expect(await score("\\boxed{4}", "3")).toMatchObject({ correct: false, reason: "different" });
    for (const r of ["no answer found", "equivalent", "different"])
      expect(MathReasonSchema.safeParse(r).success).toBe(true);
  });

  it("records how the answer was found", async () => {
    expect((await score("so \\boxed{3}", "3")).details).toEqual({ extraction: "boxed" });
    expect((await score("We get 3 apples.", "3")).details).toEqual({ extraction: "last-number" });
  });

  it("applies the precision option to decimals", async () => {
    expect((await compareMath("\\boxed{0.3333}", "1/3", { precision: 4 })).correct).toBe(true);
    expect((await compareMath("\\boxed{0.3333}", "1/3")).correct).toBe(false);
  });
});

describe("finding the answer", () => {
  it("follows Math-Verify's priorities and joins only boxes that read as one answer", () => {
    expect(findMathAnswer("\\boxed{1} no no \\boxed{2}")).toEqual({ text: "2", how: "boxed" });
    expect(findMathAnswer("\\boxed{1} or \\boxed{2}")).toEqual({
      text: "\\{1, 2\\}",
      how: "boxed-group",
    });
    expect(findMathAnswer("<answer>7</answer>")).toEqual({ text: "7", how: "answer-tag" });
    expect(findMathAnswer("Thus the answer is $\\frac12$ and we stop here today.")).toEqual({
      text: "\\frac12",
      how: "answer-line",
    });
    expect(findMathAnswer("Final answer: $x=2$")?.text).toBe("x=2");
    expect(findMathAnswer("<think>\\boxed{9}</think>No idea.")).toBeNull();
    expect(findMathAnswer("The values $[0,1)$ and more words after it")?.text).toBe("[0,1)");
    expect(findMathAnswer("no digits here at all, sorry")).toBeNull();
  });
  it("reduces a full solution to its last box", () => {
    expect(referenceAnswer("First $\\boxed{2}$, then $\\boxed{3}$.").text).toBe("3");
    expect(referenceAnswer("$5$").text).toBe("5");
  });
});

describe("normalising", () => {
  it.each([
    ["\\$1,000.50", "1000.50"],
    ["50\\,\\text{cm}^2", "50"],
    ["74^{\\circ}", "74"],
    ["\\left( \\dfrac{1}{2} \\right)", "( \\frac{1}{2})"],
    ["10 \\text{ and } 12", "10, 12"],
    ["1000,99", "1000.99"],
    ["sqrt(3)", "\\sqrt{3}"],
  ])("%j -> %j", (raw, latex) => {
    expect(cleanAnswer(raw).latex).toBe(latex);
  });
  it("marks percentages", () => {
    expect(cleanAnswer("12.5\\%")).toEqual({ latex: "12.5", percent: true });
    expect(cleanAnswer("12.5")).toEqual({ latex: "12.5", percent: false });
  });
});

describe("choosing a version", () => {
  it("builds the newest math scorer by default and the old one by version", () => {
    expect(scorerVersions("math")).toEqual([1, 2, 3]);
    const latest = createScorer({ id: "math", options: {} });
    const old = createScorer({ id: "math", options: {}, version: 1 });
    const byOption = createScorer({ id: "math", options: { version: 1 } });
    expect(latest.ok && latest.scorer.version).toBe(3);
    expect(old.ok && old.scorer.version).toBe(1);
    expect(byOption.ok && byOption.scorer.version).toBe(1);
    expect(createScorer({ id: "math", options: {}, version: 0 }).ok).toBe(true);
    const bad = createScorer({ id: "math", options: {}, version: 7 });
    expect(bad.ok ? "" : bad.message).toContain("no version 7");
    const fixed = createScorer({ id: "exact", options: {}, version: 1 });
    expect(fixed.ok ? "" : fixed.message).toContain("version 2");
  });
});
