/**
 * Agreement per source, as the agreement test measures it and the README reports it. The test
 * fails when a figure here differs from what the scorers do, so the README cannot drift.
 */
export const FIGURES: Record<string, { cases: number; agreed: number }> = {
  "math-verify": { cases: 266, agreed: 256 },
  "hendrycks-math": { cases: 16, agreed: 14 },
  "nemo-skills": { cases: 60, agreed: 60 },
  "inspect-math": { cases: 33, agreed: 33 },
  "lighteval-math": { cases: 26, agreed: 26 },
};

/** The targets: agreement over all math cases, and over all multiple-choice cases. */
export const TARGETS = { math: 0.95, mc: 0.97 } as const;
