import { finalAnswer, stripThinking } from "./extract.ts";
import { normaliseMath, plainNumber } from "./normalise.ts";
import type { ScoreResult, Scorer, ScoredItem } from "./types.ts";
import { verdict } from "./types.ts";

export interface MathScorerOptions {
  /** Relative tolerance for numbers (default 1e-6) and absolute tolerance (default 1e-9). */
  relTol?: number;
  absTol?: number;
  /** Fall back to the last number in the text when no final answer is marked (default true). */
  lastNumberFallback?: boolean;
}

function close(a: number, b: number, rel: number, abs: number): boolean {
  return Math.abs(a - b) <= Math.max(abs, rel * Math.max(Math.abs(a), Math.abs(b)));
}

/** The marked final answer, or the last number in the text. */
export function extractMath(answer: string, lastNumberFallback = true): string | null {
  const final = finalAnswer(answer);
  if (final !== null) return final;
  if (!lastNumberFallback) return null;
  const numbers = stripThinking(answer).match(/-?\d[\d,]*(?:\.\d+)?%?|-?\.\d+%?/g);
  return numbers?.at(-1) ?? null;
}

async function numericValue(expr: string): Promise<number | null> {
  const plain = plainNumber(expr);
  if (plain !== null) return plain;
  try {
    const { evaluate } = await import("mathjs");
    const v: unknown = evaluate(expr);
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

/** True when mathjs simplifies a - b to 0 (symbolic answers such as `2x+2` and `2(x+1)`). */
async function symbolicallyEqual(a: string, b: string): Promise<boolean> {
  try {
    const { simplify } = await import("mathjs");
    return simplify(`(${a}) - (${b})`).toString() === "0";
  } catch {
    return false;
  }
}

/**
 * Math and numbers: the last `\boxed{}`, `<answer>` or "Answer:" line, normalised (LaTeX fractions,
 * `\text{}`, separators, percentages, units), compared numerically with tolerance, then symbolically.
 */
export function mathScorer(options: MathScorerOptions = {}): Scorer {
  const rel = options.relTol ?? 1e-6;
  const abs = options.absTol ?? 1e-9;
  return {
    id: "math",
    version: 1,
    async score(answer: string, item: ScoredItem): Promise<ScoreResult> {
      if (item.expected === undefined || item.expected.trim() === "")
        return verdict(null, null, { reason: "The item has no reference answer." });
      const extracted = extractMath(answer, options.lastNumberFallback ?? true);
      if (extracted === null) return verdict(false, null, { reason: "No final answer found." });
      const got = normaliseMath(extracted);
      const want = normaliseMath(item.expected);
      if (got.expr === "")
        return verdict(false, extracted, { reason: "The final answer is empty." });
      if (got.expr.toLowerCase() === want.expr.toLowerCase()) return verdict(true, extracted);
      const [x, y] = await Promise.all([numericValue(got.expr), numericValue(want.expr)]);
      if (x !== null && y !== null) {
        // "8.5%" against "0.085" (or the reverse) also matches.
        const ok =
          close(x, y, rel, abs) ||
          (got.percent !== want.percent &&
            (close(x / 100, y, rel, abs) || close(x, y / 100, rel, abs)));
        return verdict(ok, extracted, { details: { got: x, want: y } });
      }
      const same = await symbolicallyEqual(got.expr, want.expr);
      return verdict(same, extracted, {
        details: { got: got.expr, want: want.expr, symbolic: true },
      });
    },
  };
}
