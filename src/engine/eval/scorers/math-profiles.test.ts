// The rule table and the grader profiles of math v3: each rule's example holds both ways with the
// rule and fails without it; each profile's conventions are pinned where it differs from default.
import { describe, expect, it } from "vitest";
import type { MathProfile, MathRule, ProfileConfig } from "./math-profiles.ts";
import { MATH_RULES, MathRuleSchema, PROFILES, VERSION_2 } from "./math-profiles.ts";
import { compareMath, mathScorerV2 } from "./math-v2.ts";
import { createScorer } from "./registry.ts";

const signal = new AbortController().signal;
const boxed = async (answer: string, reference: string, profile: MathProfile | ProfileConfig) =>
  (await compareMath(`\\boxed{${answer}}`, reference, { profile })).correct;

/** The profile a rule is tested in: default when it has the rule, else qwen-math. */
const home = (r: MathRule): ProfileConfig =>
  PROFILES.default.rules.has(r) ? PROFILES.default : PROFILES["qwen-math"];
const withRule = (r: MathRule, on: boolean): ProfileConfig => {
  const p = home(r);
  return { ...p, rules: new Set([...p.rules].filter((x) => x !== r).concat(on ? [r] : [])) };
};

describe("the rule table", () => {
  it.each(MathRuleSchema.options)(
    "%s: its example holds both ways, and not without it",
    async (r) => {
      const [a, b] = MATH_RULES[r].example;
      expect(MATH_RULES[r].doc.length).toBeGreaterThan(20);
      expect(await boxed(a, b, withRule(r, true))).toBe(true);
      expect(await boxed(b, a, withRule(r, true))).toBe(true);
      expect(await boxed(a, b, withRule(r, false))).toBe(false);
    },
  );

  it("keeps version 2's rules for version 2 and for math-verify", () => {
    expect([...VERSION_2.rules].sort()).toEqual(
      [
        "approx-tail",
        "assignment",
        "decimal-rounding",
        "percent",
        "thousands",
        "units",
        "unordered-lists",
      ].sort(),
    );
    expect(PROFILES["math-verify"]).toBe(VERSION_2);
  });
});

// The kinds of answer on which math v2 and the reference graders parted (issue 37), in default.
describe("default profile: the forms a mathematician reads as the same", () => {
  it.each([
    ["[42]", "42", true],
    ["[3, 4]", "3, 4", true],
    ["[43]", "42", false],
    ["3:00 P.M.", "15:00", true],
    ["3:30:00", "3:30", true],
    ["15:30", "3:30 PM", true],
    ["12:15 a.m.", "0:15", true],
    ["3:00 A.M.", "15:00", false],
    ["3:30:30", "3:30", false],
    ["\\begin{pmatrix}1\\\\2\\end{pmatrix}", "(1, 2)", true],
    ["\\begin{pmatrix}1\\\\2\\end{pmatrix}", "[1, 2]", true],
    ["\\begin{pmatrix}1 & 2\\end{pmatrix}", "(1, 2)", true],
    ["\\begin{pmatrix}2\\\\1\\end{pmatrix}", "(1, 2)", false],
    ["(1, 2)", "[1, 2]", false], // an open interval (or pair) is not a closed one
    ["\\{3, 1, 2\\}", "\\{1, 2, 3\\}", true],
    ["3, 1, 2", "1, 2, 3", true],
    ["(3, 1, 2)", "(1, 2, 3)", false], // a tuple keeps its order
    ["2 1/2", "2.5", true],
    ["2\\frac{1}{2}", "\\frac{5}{2}", true],
    ["-2 1/2", "-\\frac52", true],
    ["2 1/3", "2.5", false],
    ["\\sin 30^\\circ", "\\frac12", true],
    ["\\cos 40^\\circ", "\\sin 50^\\circ", true],
    ["\\tan(45^{\\circ})", "1", true],
    ["\\cos 40^\\circ", "\\sin 40^\\circ", false],
    ["5", "5cm", true],
    ["5", "5\\text{ cm}^2", true],
    ["12", "He has 12 apples left.", true],
    ["13", "He has 12 apples left.", false],
    ["12", "Between 12 and 13 apples.", false], // two numbers: no single value
    ["1.414", "\\sqrt{2}", true],
    ["3.14", "\\pi", true],
    ["1.41", "\\sqrt2", true],
    ["1.42", "\\sqrt2", false], // rounded, not truncated or near
    ["1.4", "\\sqrt2", false], // one place is not enough
    ["0.33", "\\frac13", false], // a rational value is compared exactly
    ["0.5", "\\sin(\\pi/6)", true], // (exactly 1/2)
  ])("\\boxed{%s} against %j -> %s", async (answer, reference, correct) => {
    expect(await boxed(answer, reference, "default")).toBe(correct);
    expect(await boxed(reference, answer, "default")).toBe(correct);
  });
});

describe("profiles pin their graders' conventions", () => {
  it.each<[MathProfile, string, string, boolean, string]>([
    // math-verify: version 2's conventions, none of the new forms
    ["math-verify", "[42]", "42", false, "a bracketed value is a list"],
    ["math-verify", "3:00 P.M.", "15:00", false, "no times of day"],
    ["math-verify", "1.414", "\\sqrt2", false, "rounds to 6 places, not to the answer's"],
    ["math-verify", "0.3333333", "\\frac13", true, "decimals rounded to 6 places"],
    ["math-verify", "3, 1, 2", "\\{1, 2, 3\\}", true, "sets without order"],
    // qwen-math: rel_tol 1e-4, percentages scaled, brackets loose, lists in order
    ["qwen-math", "1.00005", "1", true, "isclose(rel_tol=1e-4)"],
    ["qwen-math", "1.001", "1", false, "beyond 1e-4"],
    ["qwen-math", "0.25", "25", true, "reference / 100"],
    ["qwen-math", "2500", "25", true, "reference * 100"],
    ["qwen-math", "(1, 2)", "[1, 2]", true, "brackets stripped, parts compared"],
    ["qwen-math", "\\{3, 1, 2\\}", "\\{1, 2, 3\\}", false, "parts compared in order"],
    ["qwen-math", "x = 3", "3", true, "an assignment's value"],
    // minerva: exact match of the normalised strings
    ["minerva", "\\frac12", "\\frac{1}{2}", true, "shorthand fractions braced"],
    ["minerva", "100,000", "100000", true, "thousands separators"],
    ["minerva", "5 \\text{ dollars}", "5", true, "listed unit words removed"],
    ["minerva", "x = 3", "3", true, "the text after the last ="],
    ["minerva", "0.5", "\\frac12", false, "nothing evaluated"],
    ["minerva", "\\{3, 1\\}", "\\{1, 3\\}", false, "no reordering"],
    // strict: exact values, sets as sets, no forgiveness of form
    ["strict", "0.3333333", "\\frac13", false, "no rounding"],
    ["strict", "x = 3", "3", false, "no assignment"],
    ["strict", "5 \\text{ cm}^2", "5", false, "no units"],
    ["strict", "\\{3, 1, 2\\}", "\\{1, 2, 3\\}", true, "a set is a set"],
    ["strict", "\\frac{2}{4}", "0.5", true, "equal values"],
  ])("%s: \\boxed{%s} against %j -> %s (%s)", async (profile, answer, reference, correct) => {
    expect(await boxed(answer, reference, profile)).toBe(correct);
  });

  it("builds each profile by name and records it; an unknown one or one on version 2 is refused", () => {
    for (const profile of ["default", "math-verify", "qwen-math", "minerva", "strict"] as const) {
      const made = createScorer({ id: "math", options: {}, profile });
      expect(made.ok && [made.scorer.version, made.scorer.profile]).toEqual([3, profile]);
    }
    const bad = createScorer({ id: "math", options: { profile: "lenient" } });
    expect(bad.ok ? "" : bad.message).toContain('Unknown math profile "lenient"');
    const old = createScorer({ id: "math", options: {}, version: 2, profile: "strict" });
    expect(old.ok ? "" : old.message).toContain("no profiles");
    const mc = createScorer({ id: "mc", options: {}, profile: "strict" });
    expect(mc.ok ? "" : mc.message).toContain("Only the math scorer");
    const v2 = createScorer({ id: "math", options: {}, version: 2 });
    expect(v2.ok && v2.scorer.profile).toBeUndefined();
  });

  it("version 2 keeps its verdicts on the new forms", async () => {
    const v2 = mathScorerV2({}, 2);
    for (const [a, r] of [
      ["[42]", "42"],
      ["3:00 P.M.", "15:00"],
      ["1.414", "\\sqrt2"],
    ])
      expect(
        (await v2.score(`\\boxed{${a}}`, { question: "q", expected: r }, signal)).correct,
      ).toBe(false);
  });
});
