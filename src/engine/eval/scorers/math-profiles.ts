/**
 * The math scorer's rules and grader profiles in one table. Every convention the scorer can
 * switch is an entry of `MATH_RULES` (what it does, an example pair it decides); a profile is a
 * set of rules and tolerances, named after the grader whose verdicts it reproduces. Parsing
 * (`math-latex.ts`, `math-forms.ts`, `math-value.ts`) and comparison (`math-compare.ts`,
 * `math-v2.ts`) ask `has(rule)`, so what a profile does is read here, not scattered in the code.
 */
import { z } from "zod";

/** The named graders a user can score as. */
export const MathProfileSchema = z.enum([
  "default",
  "math-verify",
  "qwen-math",
  "minerva",
  "strict",
]);
export type MathProfile = z.infer<typeof MathProfileSchema>;

export const MathRuleSchema = z.enum([
  "units",
  "percent",
  "percent-scale",
  "thousands",
  "approx-tail",
  "assignment",
  "decimal-rounding",
  "unordered-lists",
  "brackets",
  "loose-brackets",
  "column-vector",
  "times",
  "mixed-number",
  "degrees",
  "sentence",
  "rounded-irrational",
]);
export type MathRule = z.infer<typeof MathRuleSchema>;

/** One rule: what it does, and a pair (answer, reference) that it makes equivalent. */
export interface RuleEntry {
  doc: string;
  example: readonly [answer: string, reference: string];
}

/** Every switchable rule, documented; `math-profiles.test.ts` checks each example both ways. */
export const MATH_RULES: Record<MathRule, RuleEntry> = {
  units: {
    doc: "Units and filler words after a number are dropped (`5 cm`, `5\\text{ cm}^2`, `12 apples`).",
    example: ["5", "5\\text{ cm}^2"],
  },
  percent: {
    doc: "A percentage on one side only is also read as its number (`10\\%` is `10`, and `0.1`).",
    example: ["10\\%", "10"],
  },
  "percent-scale": {
    doc: "Qwen2.5-Math: a number also matches the other side times 100 or divided by 100.",
    example: ["0.25", "25"],
  },
  thousands: {
    doc: "Thousands separators out: `7,425,000`, `14{,}916`, `1 000` (not inside a pair).",
    example: ["7,425,000", "7425000"],
  },
  "approx-tail": {
    doc: "`\\frac{\\sqrt3}{3} \\approx 0.577`: the exact form before `\\approx` is the answer.",
    example: ["\\frac{\\sqrt3}{3} \\approx 0.577", "\\frac{\\sqrt{3}}{3}"],
  },
  assignment: {
    doc: "An assignment is its value: `x = 3` against `3`, `(p, q) = (3, 2)` against `(3, 2)`.",
    example: ["x = 3", "3"],
  },
  "decimal-rounding": {
    doc: "When either side is written as a decimal, values agree rounded to `precision` places (6).",
    example: ["0.3333333", "\\frac13"],
  },
  "unordered-lists": {
    doc: "Sets and bare lists (`3, 1, 2`) are compared without order; tuples keep theirs.",
    example: ["3, 1, 2", "\\{1, 2, 3\\}"],
  },
  brackets: {
    doc: "A final answer in square brackets is its content: `[42]` is 42, `[3, 4]` against the list `3, 4`.",
    example: ["[42]", "42"],
  },
  "loose-brackets": {
    doc: "Qwen2.5-Math: `(a, b)` and `[a, b]` agree element by element whatever the brackets.",
    example: ["(1, 2)", "[1, 2]"],
  },
  "column-vector": {
    doc: "A matrix of one column or one row is the list of its values, in order (`(1, 2)`).",
    example: ["\\begin{pmatrix}1\\\\2\\end{pmatrix}", "(1, 2)"],
  },
  times: {
    doc: "A time of day is its minute of the day: `3:00 P.M.`, `15:00` and `15:00:00` agree.",
    example: ["3:30 p.m.", "15:30"],
  },
  "mixed-number": {
    doc: "A whole answer `2 1/2` (plain text) is the mixed number 5/2, as `2\\frac12` is.",
    example: ["2 1/2", "2.5"],
  },
  degrees: {
    doc: "A trigonometric function of an angle marked in degrees is evaluated in degrees.",
    example: ["\\cos 40^\\circ", "\\sin 50^\\circ"],
  },
  sentence: {
    doc: "A side that is a sentence holding one number and words only is that number.",
    example: ["12", "He has 12 apples left."],
  },
  "rounded-irrational": {
    doc: "A decimal with at least 2 places matches an irrational exact value rounded to its places.",
    example: ["1.414", "\\sqrt{2}"],
  },
};

/** A profile's rules and tolerances. */
export interface ProfileConfig {
  rules: ReadonlySet<MathRule>;
  /** Decimal places compared under "decimal-rounding". */
  precision: number;
  /** Relative tolerance for values evaluated in floating point. */
  relTol: number;
  /** How the two sides are finally compared: by value, or as strings after a normalisation. */
  compare: "value" | "minerva-string";
}

/** The rules math version 2 applied (Math-Verify's conventions, measured against its tests). */
const V2_RULES: MathRule[] = [
  "units",
  "percent",
  "thousands",
  "approx-tail",
  "assignment",
  "decimal-rounding",
  "unordered-lists",
];

const ALL = MathRuleSchema.options;

/**
 * The profiles. `default` is every rule that makes the scorer agree with more reference graders
 * without accepting a wrong answer; the others reproduce a named grader's conventions.
 */
export const PROFILES: Record<MathProfile, ProfileConfig> = {
  default: {
    rules: new Set(ALL.filter((r) => r !== "percent-scale" && r !== "loose-brackets")),
    precision: 6,
    relTol: 1e-9,
    compare: "value",
  },
  "math-verify": { rules: new Set(V2_RULES), precision: 6, relTol: 1e-9, compare: "value" },
  "qwen-math": {
    rules: new Set<MathRule>([
      ...V2_RULES.filter((r) => r !== "unordered-lists" && r !== "decimal-rounding"),
      "percent-scale",
      "loose-brackets",
      "column-vector",
    ]),
    precision: 6,
    relTol: 1e-4,
    compare: "value",
  },
  minerva: { rules: new Set(), precision: 6, relTol: 1e-9, compare: "minerva-string" },
  strict: {
    rules: new Set<MathRule>(["unordered-lists"]),
    precision: 6,
    relTol: 1e-12,
    compare: "value",
  },
};

/** What math version 2 did: kept so that `--version 2` rebuilds its verdicts exactly. */
export const VERSION_2: ProfileConfig = PROFILES["math-verify"];

/** A stable key for a rule set (the parse cache is per rule set). */
export function rulesKey(rules: ReadonlySet<MathRule>): string {
  return [...rules].sort().join(",");
}
