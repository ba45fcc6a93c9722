import type { BootstrapSettings, Interval } from "./bootstrap.ts";
import { mean, percentileInterval, resampledMean } from "./bootstrap.ts";
import { mcnemarExact } from "./exact.ts";
import { pick, seededRandom } from "./rng.ts";

/** One question's scored samples under the two strategies compared (1 right, 0 wrong). */
export interface PairedQuestion {
  a: readonly number[];
  b: readonly number[];
}

export type PairedTest = "mcnemar" | "paired-bootstrap";

/** A difference a - b in accuracy over the questions both strategies have a verdict on. */
export interface PairedDifference {
  questions: number;
  /** In accuracy units (0.06 is 6 points). */
  difference: number;
  interval: Interval;
  p: number;
  test: PairedTest;
  /** Questions only a got right, and only b got right (one sample each: McNemar's b and c). */
  discordant: { aOnly: number; bOnly: number } | null;
}

/**
 * Compares two strategies on the same questions. With one sample each per question the p-value is
 * the exact McNemar test on the discordant questions; with repeats it is the paired bootstrap's
 * two-sided p-value, (1 + 2 min(#d* <= 0, #d* >= 0)) / (B + 1) capped at 1. Either way the interval
 * is the paired bootstrap's: questions resampled together, each strategy's repeats within them.
 * Null when no question has a verdict under both.
 */
export function pairedDifference(
  pairs: readonly PairedQuestion[],
  settings: BootstrapSettings,
): PairedDifference | null {
  const qs = pairs.filter((q) => q.a.length > 0 && q.b.length > 0);
  if (qs.length === 0) return null;
  const single = qs.every((q) => q.a.length === 1 && q.b.length === 1);
  const difference = mean(qs.map((q) => mean(q.a) - mean(q.b)));
  const random = seededRandom(settings.seed);
  const stats: number[] = [];
  let below = 0;
  let above = 0;
  for (let r = 0; r < settings.resamples; r++) {
    let s = 0;
    for (let i = 0; i < qs.length; i++) {
      const q = qs[pick(random, qs.length)]!;
      s += resampledMean(q.a, random) - resampledMean(q.b, random);
    }
    const d = s / qs.length;
    if (d <= 0) below++;
    if (d >= 0) above++;
    stats.push(d);
  }
  const interval = percentileInterval(stats, settings.level);
  if (single) {
    const aOnly = qs.filter((q) => q.a[0] === 1 && q.b[0] === 0).length;
    const bOnly = qs.filter((q) => q.a[0] === 0 && q.b[0] === 1).length;
    return {
      questions: qs.length,
      difference,
      interval,
      p: mcnemarExact(aOnly, bOnly),
      test: "mcnemar",
      discordant: { aOnly, bOnly },
    };
  }
  const p = Math.min(1, (1 + 2 * Math.min(below, above)) / (settings.resamples + 1));
  return {
    questions: qs.length,
    difference,
    interval,
    p,
    test: "paired-bootstrap",
    discordant: null,
  };
}

/** Significance for the report's sentence: p below this and an interval that excludes zero. */
export const ALPHA = 0.05;

/** Whether a difference is detectable: the test says so and the interval agrees. */
export function detectable(d: PairedDifference): boolean {
  return d.p < ALPHA && (d.interval.lo > 0 || d.interval.hi < 0);
}
