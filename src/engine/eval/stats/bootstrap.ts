import { pick, seededRandom } from "./rng.ts";

/** A two-sided interval at `level` (0.95: the 2.5th and 97.5th percentiles of the resamples). */
export interface Interval {
  lo: number;
  hi: number;
}

/** How the intervals were drawn, recorded with every report so it can be reproduced. */
export interface BootstrapSettings {
  seed: number;
  resamples: number;
  level: number;
}

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_LEVEL = 0.95;

/** The mean of a list; 0 for an empty one (callers never pass one). */
export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length ? s / xs.length : 0;
}

/** The q-quantile (0..1) of sorted values, interpolating between ranks (R's type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** One question's values resampled with replacement (as many as it has), then averaged. */
export function resampledMean(values: readonly number[], random: () => number): number {
  if (values.length === 1) return values[0]!;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[pick(random, values.length)]!;
  return s / values.length;
}

/** The percentile interval of resampled statistics. */
export function percentileInterval(stats: number[], level: number): Interval {
  const sorted = stats.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { lo: quantile(sorted, tail), hi: quantile(sorted, 1 - tail) };
}

/**
 * The bootstrap interval of a mean over questions: each resample draws as many questions as there
 * are, with replacement, and within each drawn question its repeats, with replacement; the
 * statistic is the mean over questions of each question's mean. Null without questions.
 */
export function bootstrapMeanInterval(
  groups: readonly (readonly number[])[],
  settings: BootstrapSettings,
): Interval | null {
  const qs = groups.filter((g) => g.length > 0);
  if (qs.length === 0) return null;
  const random = seededRandom(settings.seed);
  const stats: number[] = [];
  for (let b = 0; b < settings.resamples; b++) {
    let s = 0;
    for (let i = 0; i < qs.length; i++) s += resampledMean(qs[pick(random, qs.length)]!, random);
    stats.push(s / qs.length);
  }
  return percentileInterval(stats, settings.level);
}
