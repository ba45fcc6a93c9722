import type { MathProfile } from "./math-profiles.ts";

/** What a scorer says about one answer. `correct: null` means unscored (never counted as wrong). */
export interface ScoreResult {
  correct: boolean | null;
  score: number;
  extracted: string | null;
  reason?: string;
  details?: Record<string, unknown>;
}

/** The item as a scorer sees it: the question as posed, the reference, and optional test cases. */
export interface ScoredItem {
  question: string;
  expected?: string;
  tests?: unknown;
}

/** A pure, versioned scorer. A change that can alter any verdict bumps `version`. */
export interface Scorer {
  id: string;
  version: number;
  /** The grader profile it scores as (math from version 3), recorded with each verdict. */
  profile?: MathProfile;
  score(answer: string, item: ScoredItem, signal: AbortSignal): Promise<ScoreResult>;
}

/** The verdict as a result: 1 or 0, or unscored. */
export function verdict(
  correct: boolean | null,
  extracted: string | null,
  extra: Omit<ScoreResult, "correct" | "score" | "extracted"> = {},
): ScoreResult {
  return { correct, score: correct ? 1 : 0, extracted, ...extra };
}
