/**
 * The seeded generator the statistics use: the evaluation's own (mulberry32, dataset/shuffle.ts),
 * the same sequence for the same seed on every platform, so a report's intervals can be
 * reproduced from its recorded seed.
 */
export { seededRandom } from "../dataset/shuffle.ts";

/** A uniform integer in [0, n). */
export function pick(random: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}
