import { verdictOf } from "./outcome.ts";
import type { StrategySummary, SummaryOptions } from "./report.ts";
import { bootstrapSettings, groupByQuestion, scorerLabel, summarise } from "./report.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import { latestResults } from "./schema.ts";
import type { BootstrapSettings } from "./stats/bootstrap.ts";
import { mean } from "./stats/bootstrap.ts";
import type { PairedDifference } from "./stats/paired.ts";
import { detectable, pairedDifference } from "./stats/paired.ts";
import { strategyName } from "./strategy.ts";

/** The strategy every other one is compared with. */
export const BASELINE = "conductor";

/** One strategy compared with the Conductor on the questions both have a verdict on. */
export interface Comparison extends PairedDifference {
  strategy: string;
  baseline: typeof BASELINE;
  /** "ahead": the Conductor is detectably more accurate; "behind": less; "none": no detectable difference. */
  verdict: "ahead" | "behind" | "none";
  sentence: string;
}

/** One (category, strategy) cell of the per-category table. */
export interface CategoryRow {
  category: string;
  strategy: string;
  questions: number;
  accuracy: number | null;
  costPerQuestion: number | null;
  callsPerQuestion: number | null;
}

/** Which scorer and version gave how many verdicts; more than one entry is a mixed report. */
export interface ScorerUse {
  id: string;
  version: number;
  /** The grader profile (math from version 3). */
  profile?: string;
  results: number;
  /** Lines older than per-result scorer stamps, attributed to the evaluation's recorded scorer. */
  assumed: boolean;
}

/** Everything the report says, recomputable from the results alone (and their recorded seed). */
export interface Analysis {
  bootstrap: BootstrapSettings;
  strategies: StrategySummary[];
  comparisons: Comparison[];
  categories: CategoryRow[];
  scorers: ScorerUse[];
}

const points = (x: number) => (x * 100).toFixed(1);

/** The p-value as the report prints it: three decimals, or "< 0.001". */
export function formatP(p: number): string {
  return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}

/** The plain sentence under the table, for one comparison. */
export function comparisonSentence(c: PairedDifference & { strategy: string }): string {
  const ci = `95% CI ${points(c.interval.lo)} to ${points(c.interval.hi)}, ${formatP(c.p)}`;
  if (!detectable(c))
    return `The Conductor and ${c.strategy}: no detectable difference (${c.difference >= 0 ? "+" : ""}${points(c.difference)} points, ${ci}, ${c.questions} questions).`;
  const side = c.difference > 0 ? "ahead of" : "behind";
  return `The Conductor is ${side} ${c.strategy} by ${points(Math.abs(c.difference))} points (${ci}).`;
}

const bit = (r: EvalResult) => (r.error || r.correct === null ? null : r.correct ? 1 : 0);

/** Every strategy against the Conductor, paired by question; empty without a Conductor strategy. */
export function compareWithConductor(
  results: readonly EvalResult[],
  strategies: readonly string[],
  settings: BootstrapSettings,
): Comparison[] {
  if (!strategies.includes(BASELINE)) return [];
  const current = latestResults(results);
  const base = groupByQuestion(
    current.filter((r) => r.strategy === BASELINE),
    bit,
  );
  return strategies.flatMap((strategy) => {
    if (strategy === BASELINE) return [];
    const other = groupByQuestion(
      current.filter((r) => r.strategy === strategy),
      bit,
    );
    const pairs = [...base].map(([item, a]) => ({ a, b: other.get(item) ?? [] }));
    const d = pairedDifference(pairs, settings);
    if (!d) return [];
    const verdict = !detectable(d) ? "none" : d.difference > 0 ? "ahead" : "behind";
    return [
      {
        ...d,
        strategy,
        baseline: BASELINE,
        verdict,
        sentence: comparisonSentence({ ...d, strategy }),
      },
    ];
  });
}

/** Per category (items without one are left out): questions, accuracy, cost and calls. */
export function categoryRows(
  results: readonly EvalResult[],
  strategies: readonly string[],
): CategoryRow[] {
  const current = latestResults(results).filter((r) => r.category !== undefined && !r.error);
  const categories = [...new Set(current.map((r) => r.category!))].sort();
  return categories.flatMap((category) =>
    strategies.map((strategy) => {
      const rs = current.filter((r) => r.category === category && r.strategy === strategy);
      const correct = [...groupByQuestion(rs, bit).values()].map(mean);
      return {
        category,
        strategy,
        questions: new Set(rs.map((r) => r.item)).size,
        accuracy: correct.length ? mean(correct) : null,
        costPerQuestion: rs.length ? mean(rs.map((r) => r.cost)) : null,
        callsPerQuestion: rs.length ? mean(rs.map((r) => r.calls)) : null,
      };
    }),
  );
}

/** Which scorer versions gave the verdicts (errored items have none). */
export function scorerUse(
  results: readonly EvalResult[],
  recorded: { id: string; version: number; profile?: string | undefined },
): ScorerUse[] {
  const by = new Map<string, ScorerUse>();
  for (const r of latestResults(results)) {
    if (verdictOf(r) === "error") continue;
    const s = r.scoredBy ?? recorded;
    const key = `${scorerLabel(s)}\n${r.scoredBy ? "" : "assumed"}`;
    const seen = by.get(key);
    by.set(key, {
      id: s.id,
      version: s.version,
      ...(s.profile !== undefined ? { profile: s.profile } : {}),
      results: (seen?.results ?? 0) + 1,
      assumed: !r.scoredBy,
    });
  }
  return [...by.values()];
}

/** True when the verdicts came from more than one scorer, version or profile (the report says so). */
export function mixedScorers(uses: readonly ScorerUse[]): boolean {
  return new Set(uses.map(scorerLabel)).size > 1;
}

/** The evaluation's report: the bootstrap seed is the evaluation's seed unless one is given. */
export function analyse(
  evaluation: Pick<Evaluation, "strategies" | "repeats" | "seed" | "scorer">,
  results: readonly EvalResult[],
  options: SummaryOptions = {},
): Analysis {
  const names = evaluation.strategies.map(strategyName);
  const settings = bootstrapSettings({
    ...options,
    bootstrap: { seed: evaluation.seed, ...options.bootstrap },
  });
  const o = { bootstrap: settings, repeats: options.repeats ?? evaluation.repeats };
  return {
    bootstrap: settings,
    strategies: summarise(results, names, o),
    comparisons: compareWithConductor(results, names, settings),
    categories: categoryRows(results, names),
    scorers: scorerUse(results, evaluation.scorer),
  };
}

/** The evaluation as one JSON document: its definition (pool without keys), report and results. */
export function evaluationJson(evaluation: Evaluation, results: readonly EvalResult[]): string {
  const report = analyse(evaluation, results);
  return (
    JSON.stringify(
      {
        ...evaluation,
        pool: evaluation.pool.map((w) => ({ ...w, headers: undefined })),
        summary: report.strategies,
        comparisons: report.comparisons,
        categories: report.categories,
        scorers: report.scorers,
        bootstrap: report.bootstrap,
        results: latestResults(results),
      },
      null,
      2,
    ) + "\n"
  );
}
