// How the spending cap's skips read, for the command line and the studio alike.
import type { EstimateBasis } from "./cost-model.ts";
import type { SkippedStrategy } from "./runner.ts";

/** Dollars to three significant digits: a cap of $0.025 reads as set, not rounded to cents. */
export const capDollars = (x: number): string => `$${Number(x.toPrecision(3))}`;

const BASIS: Record<EstimateBasis, string> = {
  strategy: "its measured mean",
  calls: "its workers' measured calls",
  prior: "prices and typical token counts, nothing measured yet",
};

/** One strategy's skips: "moa: 4 item(s) skipped, estimated $0.002 each (from ...) with $0.0005 left". */
export function describeSkipped(s: SkippedStrategy): string {
  return `${s.strategy}: ${s.items} item(s) skipped, estimated ${capDollars(s.estimate)} each (from ${BASIS[s.basis]}) with ${capDollars(s.left)} left`;
}
