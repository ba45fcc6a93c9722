import type { MathProfile } from "../math-profiles.ts";

/**
 * Agreement per source, as the agreement test measures it and docs/evaluate.md reports it. The
 * test fails when a figure here differs from what the scorers do, so the manual cannot drift.
 */
export const FIGURES: Record<string, { cases: number; agreed: number }> = {
  "math-verify": { cases: 266, agreed: 256 },
  "hendrycks-math": { cases: 16, agreed: 14 },
  "nemo-skills": { cases: 60, agreed: 60 },
  "inspect-math": { cases: 33, agreed: 33 },
  "lighteval-math": { cases: 26, agreed: 26 },
  "simple-evals-math": { cases: 8, agreed: 7 },
  "simple-evals-mc": { cases: 24, agreed: 24 },
  "inspect-mc": { cases: 5, agreed: 5 },
  "lighteval-mc": { cases: 15, agreed: 15 },
  "math-verify-mc": { cases: 7, agreed: 7 },
};

/**
 * Agreement over all math sources per grader profile (the rows above are the default profile's).
 * The other profiles reproduce one grader's conventions, so they agree less with the others'
 * verdicts by design; docs/evaluate.md's "Graders" table gives them per source.
 */
export const PROFILE_FIGURES: Record<Exclude<MathProfile, "default">, number> = {
  "math-verify": 396,
  "qwen-math": 384,
  minerva: 221,
  strict: 327,
};

/** The targets: agreement over all math cases, and over all multiple-choice cases. */
export const TARGETS = { math: 0.95, mc: 0.97 } as const;
