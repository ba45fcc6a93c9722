import { groupByQuestion, scorerLabel } from "./report.ts";
import type { EvalResult } from "./schema.ts";
import { latestResults } from "./schema.ts";
import type { BootstrapSettings } from "./stats/bootstrap.ts";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, mean } from "./stats/bootstrap.ts";
import type { PairedDifference } from "./stats/paired.ts";
import { pairedDifference } from "./stats/paired.ts";

/** One strategy in both evaluations: its accuracy in each and the change (B - A), paired by question. */
export interface StrategyChange {
  strategy: string;
  accuracyA: number | null;
  accuracyB: number | null;
  /** B - A on the questions both have a verdict on; null when they share none. */
  change: PairedDifference | null;
}

/** How a question's standing under a strategy moved from A to B. */
export type Flip = "gained" | "lost" | "changed";

/** A question whose verdict moved between the two evaluations, with the runs on each side. */
export interface FlippedItem {
  item: string;
  strategy: string;
  flip: Flip;
  /** Mean correctness over the question's scored repeats. */
  a: number;
  b: number;
  runIdsA: string[];
  runIdsB: string[];
}

export interface EvalDiff {
  bootstrap: BootstrapSettings;
  /** Strategies both evaluations ran, in A's order. */
  strategies: StrategyChange[];
  /** Strategies only one side ran (not compared). */
  onlyA: string[];
  onlyB: string[];
  flipped: FlippedItem[];
  /**
   * The scorers (id, version, profile) that gave each side's verdicts. When they differ on the
   * same answers (A, then A re-scored by a new version), the flipped items are what it changed.
   */
  scorersA: string[];
  scorersB: string[];
}

const bit = (r: EvalResult) => (r.error || r.correct === null ? null : r.correct ? 1 : 0);

function accuracy(groups: Map<string, number[]>): number | null {
  return groups.size ? mean([...groups.values()].map(mean)) : null;
}

/**
 * Two evaluations of the same question set side by side: per shared strategy the accuracy of each,
 * the change with its paired interval and p-value (exact McNemar with one sample each, paired
 * bootstrap with repeats), and every question whose verdict moved, with its runs on both sides.
 * Questions without a verdict on either side (errored, unscored) are left out of both.
 */
export function diffEvaluations(
  a: readonly EvalResult[],
  b: readonly EvalResult[],
  settings: Partial<BootstrapSettings> = {},
): EvalDiff {
  const bootstrap: BootstrapSettings = {
    seed: settings.seed ?? 0,
    resamples: settings.resamples ?? DEFAULT_RESAMPLES,
    level: settings.level ?? DEFAULT_LEVEL,
  };
  const ra = latestResults(a);
  const rb = latestResults(b);
  const names = (rs: EvalResult[]) => [...new Set(rs.map((r) => r.strategy))];
  const inB = new Set(names(rb));
  const inA = new Set(names(ra));
  const shared = names(ra).filter((s) => inB.has(s));
  const strategies: StrategyChange[] = [];
  const flipped: FlippedItem[] = [];
  for (const strategy of shared) {
    const of = (rs: EvalResult[]) => rs.filter((r) => r.strategy === strategy);
    const ga = groupByQuestion(of(ra), bit);
    const gb = groupByQuestion(of(rb), bit);
    const pairs = [...gb].map(([item, vb]) => ({ a: vb, b: ga.get(item) ?? [] }));
    strategies.push({
      strategy,
      accuracyA: accuracy(ga),
      accuracyB: accuracy(gb),
      change: pairedDifference(pairs, bootstrap),
    });
    const runs = (rs: EvalResult[], item: string) =>
      of(rs)
        .filter((r) => r.item === item)
        .map((r) => r.runId);
    for (const [item, va] of ga) {
      const vb = gb.get(item);
      if (!vb) continue;
      const ma = mean(va);
      const mb = mean(vb);
      if (ma === mb) continue;
      const flip: Flip =
        ma === 0 && mb === 1 ? "gained" : ma === 1 && mb === 0 ? "lost" : "changed";
      flipped.push({
        item,
        strategy,
        flip,
        a: ma,
        b: mb,
        runIdsA: runs(ra, item),
        runIdsB: runs(rb, item),
      });
    }
  }
  return {
    bootstrap,
    strategies,
    onlyA: [...inA].filter((s) => !inB.has(s)),
    onlyB: [...inB].filter((s) => !inA.has(s)),
    flipped,
    scorersA: scorersOf(ra),
    scorersB: scorersOf(rb),
  };
}

/** "math v3 (default)" for each scorer stamped on the verdicts ("as recorded" lines have none). */
function scorersOf(rs: readonly EvalResult[]): string[] {
  return [...new Set(rs.flatMap((r) => (r.scoredBy ? [scorerLabel(r.scoredBy)] : [])))];
}

const points = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}`;
const pct = (x: number | null) => (x === null ? "-" : (x * 100).toFixed(1));
const verdict = (x: number) => (x === 1 ? "right" : x === 0 ? "wrong" : `${(x * 100).toFixed(0)}%`);

/** The diff as text: a table of changes, then the flipped questions with both runs' ids. */
export function diffText(d: EvalDiff, labels: { a: string; b: string }): string {
  const head = ["strategy", "acc A %", "acc B %", "Δ points", "95% CI", "p", "questions"];
  const body = d.strategies.map((s) => {
    const c = s.change;
    return [
      s.strategy,
      pct(s.accuracyA),
      pct(s.accuracyB),
      c ? points(c.difference) : "-",
      c ? `${points(c.interval.lo)} to ${points(c.interval.hi)}` : "-",
      c ? (c.p < 0.001 ? "<0.001" : c.p.toFixed(3)) : "-",
      c ? String(c.questions) : "0",
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const scored = (s: string[]) => (s.length ? ` (scored by ${s.join(", ")})` : "");
  const out = [
    `A: ${labels.a}${scored(d.scorersA)}`,
    `B: ${labels.b}${scored(d.scorersB)}`,
    line(head),
    ...body.map(line),
  ];
  if (d.onlyA.length) out.push(`Only in A (not compared): ${d.onlyA.join(", ")}`);
  if (d.onlyB.length) out.push(`Only in B (not compared): ${d.onlyB.join(", ")}`);
  out.push("", `${d.flipped.length} question(s) flipped:`);
  for (const f of d.flipped)
    out.push(
      `  ${f.item}  ${f.strategy}: ${verdict(f.a)} -> ${verdict(f.b)}  (A runs ${f.runIdsA.join(" ")}; B runs ${f.runIdsB.join(" ")})`,
    );
  return `${out.join("\n")}\n`;
}
