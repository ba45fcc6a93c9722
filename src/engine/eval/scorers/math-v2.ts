/**
 * The math scorer, version 2: the answer found as Math-Verify finds it (`math-extract.ts`), both
 * sides parsed by `@cortex-js/compute-engine` (`math-value.ts`) and compared by structure and
 * value (`math-compare.ts`). Version 1 (`math.ts`) stays available by version.
 */
import { z } from "zod";
import { Comparer } from "./math-compare.ts";
import { findMathAnswer, referenceAnswer } from "./math-extract.ts";
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
  /** Decimal places compared when a side is written as a decimal (default 6, as Math-Verify). */
  precision?: number;
  /** Relative tolerance for exact forms evaluated in floating point (default 1e-9). */
  relTol?: number;
}

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
  if (norm(answer) !== "" && norm(answer) === norm(reference))
    return { correct: true, extracted: answer.trim(), reason: "equivalent", how: "whole" };
  const found = findMathAnswer(answer);
  if (found === null) return { correct: false, extracted: null, reason: "no answer found" };
  const ref = referenceAnswer(reference);
  const [got0, want] = await Promise.all([parseMath(found.text), parseMath(ref.text)]);
  // "$? just about 1$": a span that does not parse still ends in the number it gives
  const lastNumber = got0 === null ? /-?\d+(?:\.\d+)?(?!.*\d)/.exec(found.text) : null;
  const got = got0 ?? (lastNumber ? await parseMath(lastNumber[0]) : null);
  const base = { extracted: found.text, how: found.how };
  if (got && want && norm(got.text) === norm(want.text))
    return { ...base, correct: true, reason: "equivalent" };
  if (want === null) return { ...base, correct: false, reason: "reference unreadable" };
  if (got === null) return { ...base, correct: false, reason: "answer unreadable" };
  const ce = await computeEngine();
  const cmp = new Comparer(
    ce,
    { precision: options.precision ?? 6, relTol: options.relTol ?? 1e-9 },
    got.decimal || want.decimal,
  );
  const forms = (v: MathValue) => [v.json, ...(v.assigned !== undefined ? [v.assigned] : [])];
  const same = percentForms(want, got.percent).some((w) =>
    percentForms(got, want.percent).some((g) =>
      forms(w).some((x) => forms(g).some((y) => cmp.same(x, y))),
    ),
  );
  return { ...base, correct: same, reason: same ? "equivalent" : "different" };
}

/** The math scorer, version 2 (see the module comment). */
export function mathScorerV2(options: MathV2Options = {}): Scorer {
  return {
    id: "math",
    version: 2,
    async score(answer: string, item: ScoredItem): Promise<ScoreResult> {
      if (item.expected === undefined || item.expected.trim() === "")
        return verdict(null, null, { reason: "no reference" });
      const r = await compareMath(answer, item.expected, options);
      return verdict(r.correct, r.extracted, {
        reason: r.reason,
        ...(r.how ? { details: { extraction: r.how } } : {}),
      });
    },
  };
}
