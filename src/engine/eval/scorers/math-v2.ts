/**
 * The math scorer, versions 2 and 3: the answer found as Math-Verify finds it (`math-extract.ts`),
 * both sides parsed by `@cortex-js/compute-engine` (`math-value.ts`) and compared by structure
 * and value (`math-compare.ts`), under a grader profile's rules (`math-profiles.ts`). Version 3
 * adds profiles (default: every rule); version 2 is version 2's rules, kept to rebuild its verdicts.
 * Version 1 (`math.ts`) stays available by version.
 */
import { z } from "zod";
import { Comparer } from "./math-compare.ts";
import { findMathAnswer, referenceAnswer } from "./math-extract.ts";
import { minervaNormalise } from "./math-minerva.ts";
import type { MathProfile, ProfileConfig } from "./math-profiles.ts";
import { PROFILES, VERSION_2 } from "./math-profiles.ts";
import type { MathValue } from "./math-value.ts";
import { computeEngine, parseMath } from "./math-value.ts";
import type { ScoreResult, Scorer, ScoredItem } from "./types.ts";
import { verdict } from "./types.ts";

/** Why a math verdict is what it is. */
export const MathReasonSchema = z.enum([
  "equivalent",
  "different",
  "no answer found",
  "answer unreadable",
  "no reference",
  "reference unreadable",
]);
export type MathReason = z.infer<typeof MathReasonSchema>;

export interface MathV2Options {
  /** Decimal places compared when a side is written as a decimal (default: the profile's). */
  precision?: number;
  /** Relative tolerance for exact forms evaluated in floating point (default: the profile's). */
  relTol?: number;
  /** The grader profile, by name or as rules (default: the `default` profile). */
  profile?: MathProfile | ProfileConfig;
}

/** The newest math scorer version; the math kind's `versions` in scorers/kinds.ts lists what can
 * still be built. */
export const MATH_VERSION = 3;

const norm = (s: string) => s.replace(/\s+/g, "").toLowerCase();

/** A percentage on one side only: "33.5%" and "0.335" agree, and so do "10%" and "10". */
function percentForms(v: MathValue, otherPercent: boolean): MathValue[] {
  if (!v.percent || otherPercent) return [v];
  const div = (x: MathValue["json"]) => ["Divide", x, 100] as MathValue["json"];
  return [
    v,
    { ...v, json: div(v.json), ...(v.assigned !== undefined ? { assigned: div(v.assigned) } : {}) },
  ];
}

/** Scores one answer against one reference; both are free text. */
export async function compareMath(
  answer: string,
  reference: string,
  options: MathV2Options = {},
): Promise<{ correct: boolean; extracted: string | null; reason: MathReason; how?: string }> {
  const profile =
    typeof options.profile === "string"
      ? PROFILES[options.profile]
      : (options.profile ?? PROFILES.default);
  const rules = profile.rules;
  if (norm(answer) !== "" && norm(answer) === norm(reference))
    return { correct: true, extracted: answer.trim(), reason: "equivalent", how: "whole" };
  const found = findMathAnswer(answer);
  if (found === null) return { correct: false, extracted: null, reason: "no answer found" };
  const ref = referenceAnswer(reference);
  const base = { extracted: found.text, how: found.how };
  if (profile.compare === "minerva-string") {
    const same = minervaNormalise(found.text) === minervaNormalise(ref.text);
    return { ...base, correct: same, reason: same ? "equivalent" : "different" };
  }
  const [got0, want] = await Promise.all([
    parseMath(found.text, rules),
    parseMath(ref.text, rules),
  ]);
  // "$? just about 1$": a span that does not parse still ends in the number it gives
  const lastNumber = got0 === null ? /-?\d+(?:\.\d+)?(?!.*\d)/.exec(found.text) : null;
  const got = got0 ?? (lastNumber ? await parseMath(lastNumber[0], rules) : null);
  if (got && want && norm(got.text) === norm(want.text))
    return { ...base, correct: true, reason: "equivalent" };
  if (want === null) return { ...base, correct: false, reason: "reference unreadable" };
  if (got === null) return { ...base, correct: false, reason: "answer unreadable" };
  // two times of day agree by their minute of the day ("3:00 P.M." and "15:00")
  if (got.time !== undefined && want.time !== undefined && Math.abs(got.time - want.time) < 1e-9)
    return { ...base, correct: true, reason: "equivalent" };
  const ce = await computeEngine();
  const cmp = new Comparer(
    ce,
    { precision: options.precision ?? profile.precision, relTol: options.relTol ?? profile.relTol },
    rules.has("decimal-rounding") && (got.decimal || want.decimal),
    rules,
  );
  const forms = (v: MathValue) => [v.json, ...(v.assigned !== undefined ? [v.assigned] : [])];
  const scaled = (v: MathValue) => (rules.has("percent-scale") ? scaledForms(v) : [v]);
  const same = percentForms(want, got.percent)
    .flatMap(scaled)
    .some((w) =>
      percentForms(got, want.percent).some((g) =>
        forms(w).some((x) => forms(g).some((y) => cmp.same(x, y))),
      ),
    );
  return { ...base, correct: same, reason: same ? "equivalent" : "different" };
}

/** Qwen2.5-Math's "percent-scale": the reference, and it divided and multiplied by 100. */
function scaledForms(v: MathValue): MathValue[] {
  const by = (op: string) => ({ ...v, json: [op, v.json, 100] as MathValue["json"] });
  return [v, by("Divide"), by("Multiply")];
}

/**
 * The math scorer (see the module comment): version 3 under `options.profile` (default the
 * `default` profile), or version 2, which has no profiles and applies version 2's rules.
 */
export function mathScorerV2(options: MathV2Options = {}, version = MATH_VERSION): Scorer {
  const name = typeof options.profile === "string" ? options.profile : "default";
  const profiled = version >= 3 ? options : { ...options, profile: VERSION_2 };
  return {
    id: "math",
    version,
    ...(version >= 3 ? { profile: name } : {}),
    async score(answer: string, item: ScoredItem): Promise<ScoreResult> {
      if (item.expected === undefined || item.expected.trim() === "")
        return verdict(null, null, { reason: "no reference" });
      const r = await compareMath(answer, item.expected, profiled);
      return verdict(r.correct, r.extracted, {
        reason: r.reason,
        ...(r.how ? { details: { extraction: r.how } } : {}),
      });
    },
  };
}
