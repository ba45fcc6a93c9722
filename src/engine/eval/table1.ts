/**
 * The paper's Table 1 for your own pool: one row per strategy, one column per benchmark (one
 * evaluation each, usually a preset's), each cell the accuracy with its bootstrap interval and the
 * cost per question. Built from the same analysis as each evaluation's own report.
 */
import { csvCell } from "../csv.ts";
import { analyse } from "./analysis.ts";
import type { EvalResult, Evaluation } from "./schema.ts";
import type { StrategySummary } from "./report.ts";

/** One benchmark's column: an evaluation and its results. */
export interface BenchmarkRun {
  evaluation: Evaluation;
  results: readonly EvalResult[];
}

export interface Table1Cell {
  questions: number;
  accuracy: number | null;
  lo: number | null;
  hi: number | null;
  costPerQuestion: number;
}

export interface Table1 {
  benchmarks: string[];
  strategies: string[];
  /** cells[strategy][benchmark]; null where that strategy did not run on that benchmark. */
  cells: (Table1Cell | null)[][];
}

/** A column's name: the preset's, else the evaluation's. */
function benchmarkName(e: Evaluation): string {
  return e.benchmark?.name ?? e.name;
}

function cellOf(s: StrategySummary): Table1Cell {
  return {
    questions: s.questions,
    accuracy: s.accuracy,
    lo: s.accuracyCi?.lo ?? null,
    hi: s.accuracyCi?.hi ?? null,
    costPerQuestion: s.costPerQuestion,
  };
}

/** The table: strategies in the order first seen (the Conductor first where it ran), benchmarks as given. */
export function table1(runs: readonly BenchmarkRun[]): Table1 {
  const analyses = runs.map((r) => analyse(r.evaluation, r.results));
  const strategies: string[] = [];
  for (const a of analyses)
    for (const s of a.strategies) if (!strategies.includes(s.strategy)) strategies.push(s.strategy);
  strategies.sort((x, y) => Number(y === "conductor") - Number(x === "conductor"));
  return {
    benchmarks: runs.map((r) => benchmarkName(r.evaluation)),
    strategies,
    cells: strategies.map((name) =>
      analyses.map((a) => {
        const s = a.strategies.find((x) => x.strategy === name);
        return s ? cellOf(s) : null;
      }),
    ),
  };
}

const pct = (x: number | null) => (x === null ? "–" : (x * 100).toFixed(1));
const usd = (x: number) => (x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(3)}`);

function cellText(c: Table1Cell | null): string {
  if (!c) return "";
  if (c.accuracy === null) return "unscored";
  const ci = c.lo === null || c.hi === null ? "" : ` [${pct(c.lo)}, ${pct(c.hi)}]`;
  return `${pct(c.accuracy)}${ci} · ${usd(c.costPerQuestion)}/q`;
}

const mdEscape = (s: string) => s.replace(/\|/g, "\\|").replace(/[\r\n]+/g, " ");

/** The table as Markdown: accuracy in %, its 95% interval, and the cost per question. */
export function table1Markdown(t: Table1): string {
  const head = `| Strategy | ${t.benchmarks.map(mdEscape).join(" | ")} |`;
  const rule = `|---|${t.benchmarks.map(() => "---").join("|")}|`;
  const rows = t.strategies.map(
    (s, i) => `| ${mdEscape(s)} | ${t.cells[i]!.map(cellText).join(" | ")} |`,
  );
  const note =
    "\nAccuracy in % with its 95% bootstrap interval over questions, then the cost per question.\n";
  return `${[head, rule, ...rows].join("\n")}\n${note}`;
}

/** The table as CSV: one row per (strategy, benchmark) cell, numbers as fractions and dollars. */
export function table1Csv(t: Table1): string {
  const lines: unknown[][] = [
    [
      "strategy",
      "benchmark",
      "questions",
      "accuracy",
      "accuracyLo",
      "accuracyHi",
      "costPerQuestion",
    ],
  ];
  t.strategies.forEach((s, i) =>
    t.benchmarks.forEach((b, j) => {
      const c = t.cells[i]![j];
      if (c) lines.push([s, b, c.questions, c.accuracy, c.lo, c.hi, c.costPerQuestion]);
    }),
  );
  return `${lines.map((l) => l.map(csvCell).join(",")).join("\n")}\n`;
}
