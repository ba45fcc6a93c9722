import { describe, expect, it } from "vitest";
import { doneResult } from "../../test-support/engine/eval/eval-results.ts";
import { storedEvaluation } from "../../test-support/engine/eval/stored-evaluation.ts";
import type { Evaluation } from "./schema.ts";
import { table1, table1Csv, table1Markdown } from "./table1.ts";

/** A stored evaluation of four questions from `name`, of `benchmark` when one is named. */
const evaluation = (
  benchmark: string | null,
  name = "file.jsonl",
  strategies?: Evaluation["strategies"],
): Evaluation =>
  storedEvaluation(name, benchmark ? { id: benchmark.toLowerCase(), name: benchmark } : null, {
    dataset: { name, hash: "h", size: 4 },
    ...(strategies ? { strategies } : {}),
  });

/** `right` of four questions correct for `strategy`, each question costing `cost`. */
const results = (strategy: string, right: number, cost: number) =>
  ["a", "b", "c", "d"].map((q, i) => doneResult(q, strategy, { correct: i < right, cost }));

describe("Table 1", () => {
  const runs = [
    {
      evaluation: evaluation("GPQA-Diamond", "gpqa.jsonl", [
        { kind: "single", worker: "GPT" },
        { kind: "conductor", rounds: 0 },
      ]),
      results: [...results("single:GPT", 2, 0.01), ...results("conductor", 3, 0.02)],
    },
    { evaluation: evaluation(null, "mine.jsonl"), results: results("conductor", 4, 0.5) },
  ];

  it("puts strategies down (the Conductor first) and benchmarks across, a blank where one did not run", () => {
    const t = table1(runs);
    expect(t.benchmarks).toEqual(["GPQA-Diamond", "mine.jsonl"]);
    expect(t.strategies).toEqual(["conductor", "single:GPT"]);
    expect(t.cells[0]!.map((c) => c?.accuracy)).toEqual([0.75, 1]);
    expect(t.cells[1]![0]).toMatchObject({ questions: 4, accuracy: 0.5, costPerQuestion: 0.01 });
    expect(t.cells[1]![1]).toBeNull();
    const ci = t.cells[0]![0]!;
    expect(ci.lo! <= 0.75 && 0.75 <= ci.hi!).toBe(true);
  });

  it("writes Markdown with intervals and cost per question, and CSV one row per cell", () => {
    const t = table1(runs);
    const md = table1Markdown(t);
    expect(md.split("\n")[0]).toBe("| Strategy | GPQA-Diamond | mine.jsonl |");
    expect(md).toMatch(/\| conductor \| 75\.0 \[\d+\.\d, \d+\.\d\] · \$0\.020\/q \| 100\.0/);
    expect(md).toMatch(/\| single:GPT \| 50\.0 .* \| {2}\|$/m);
    const csv = table1Csv(t).trim().split("\n");
    expect(csv[0]).toBe(
      "strategy,benchmark,questions,accuracy,accuracyLo,accuracyHi,costPerQuestion",
    );
    expect(csv).toHaveLength(4);
    expect(csv[3]).toMatch(/^single:GPT,GPQA-Diamond,4,0\.5,/);
  });

  it("keeps a benchmark name that holds a pipe or a formula from breaking either format", () => {
    const t = table1([{ evaluation: evaluation("=cmd|x"), results: results("conductor", 1, 0) }]);
    expect(table1Markdown(t).split("\n")[0]).toBe("| Strategy | =cmd\\|x |");
    expect(table1Csv(t)).toContain(",'=cmd|x,");
  });
});
