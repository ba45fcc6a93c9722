// The report's figures on results small enough to work out by hand.
import { describe, expect, it } from "vitest";
import { analyse, comparisonSentence, formatP, mixedScorers, scorerUse } from "./analysis.ts";
import { summarise } from "./report.ts";
import { reportCsv, scorerNote, summaryTable } from "./report-text.ts";
import type { EvalResult } from "./schema.ts";
import { line } from "../../test-support/engine/eval/eval-results.ts";

/** A result as the analysis reads it: 100 tokens for $0.01 in one call, "7" right and "8" wrong. */
const r = (
  strategy: string,
  item: string,
  correct: boolean | null,
  over: Partial<EvalResult> = {},
): EvalResult =>
  line(strategy, item, correct, "", {
    answer: correct ? "Answer: 7" : "Answer: 8",
    expected: "7",
    tokens: 100,
    cost: 0.01,
    latencyMs: 10,
    runId: `${strategy}-${item}-${over.repeat ?? 0}`,
    calls: 1,
    extracted: correct ? "7" : "8",
    scoredBy: { id: "math", version: 2 },
    ...over,
  });

const ERROR = { stage: "worker" as const, code: "server", message: "500" };

// conductor: q1 q2 q4 right, q3 wrong, q5 errored; single:A: only q1 right.
const RESULTS: EvalResult[] = [
  r("conductor", "q1", true, { category: "algebra", cost: 0.02, calls: 3 }),
  r("conductor", "q2", true, { category: "algebra", cost: 0.02, calls: 3 }),
  r("conductor", "q3", false, { category: "geometry", cost: 0.02, calls: 3 }),
  r("conductor", "q4", true, { category: "geometry", cost: 0.02, calls: 3 }),
  r("conductor", "q5", null, { error: ERROR, cost: 0.5, calls: 1, scoredBy: undefined }),
  r("single:A", "q1", true, { category: "algebra" }),
  r("single:A", "q2", false, { category: "algebra" }),
  r("single:A", "q3", false, { category: "geometry" }),
  r("single:A", "q4", false, { category: "geometry" }),
  r("single:A", "q5", false),
];

const EV = {
  strategies: [
    { kind: "conductor" as const, rounds: 0 },
    { kind: "single" as const, worker: "A" },
  ],
  repeats: 1,
  seed: 5,
  scorer: { id: "math", options: {}, version: 2 },
};

describe("the report", () => {
  it("counts questions and samples apart and leaves errors out of accuracy and cost", () => {
    const [c, a] = analyse(EV, RESULTS).strategies;
    expect(c).toMatchObject({
      samples: 5,
      questions: 4,
      errors: 1,
      scored: 4,
      unscored: 0,
      accuracy: 0.75,
      callsPerQuestion: 3,
      k: 1,
      passAtK: null,
      majAtK: null,
    });
    expect(c!.costPerQuestion).toBeCloseTo(0.02, 12);
    expect(c!.costCi).toEqual({ lo: 0.02, hi: 0.02 });
    expect(a).toMatchObject({ samples: 5, questions: 5, errors: 0, accuracy: 0.2 });
    expect(c!.accuracyCi!.lo).toBeLessThanOrEqual(0.75);
    expect(c!.accuracyCi!.hi).toBe(1);
  });

  it("compares with the Conductor on the questions both have a verdict on", () => {
    const [cmp] = analyse(EV, RESULTS).comparisons;
    // q5 is errored for the Conductor: 4 questions; the Conductor alone is right on q2 and q4.
    expect(cmp).toMatchObject({
      strategy: "single:A",
      baseline: "conductor",
      questions: 4,
      test: "mcnemar",
      discordant: { aOnly: 2, bOnly: 0 },
      p: 0.5, // 2 * 1/4
      verdict: "none",
    });
    expect(cmp!.difference).toBeCloseTo(0.5, 12);
    expect(cmp!.sentence).toMatch(
      /^The Conductor and single:A: no detectable difference \(\+50\.0 points, 95% CI .* p = 0\.500, 4 questions\)\.$/,
    );
    expect(analyse({ ...EV, strategies: [EV.strategies[1]!] }, RESULTS).comparisons).toEqual([]);
  });

  it("writes the sentence the issue asks for", () => {
    const d = {
      strategy: "single:GPT-5",
      questions: 500,
      difference: 0.06,
      interval: { lo: 0.012, hi: 0.108 },
      p: 0.014,
      test: "mcnemar" as const,
      discordant: { aOnly: 40, bOnly: 10 },
    };
    expect(comparisonSentence(d)).toBe(
      "The Conductor is ahead of single:GPT-5 by 6.0 points (95% CI 1.2 to 10.8, p = 0.014).",
    );
    expect(
      comparisonSentence({ ...d, difference: -0.06, interval: { lo: -0.108, hi: -0.012 } }),
    ).toBe("The Conductor is behind single:GPT-5 by 6.0 points (95% CI -10.8 to -1.2, p = 0.014).");
    // p below 0.05 but an interval across zero: not called a difference.
    expect(comparisonSentence({ ...d, interval: { lo: -0.01, hi: 0.1 } })).toContain(
      "no detectable difference",
    );
    expect(formatP(0.0004)).toBe("p < 0.001");
    expect(formatP(0.05)).toBe("p = 0.050");
  });

  it("gives pass@k and maj@k beside mean accuracy with repeats", () => {
    const rep = (item: string, repeat: number, correct: boolean) =>
      r("single:A", item, correct, { repeat, runId: `${item}-${repeat}` });
    const results = [
      // q1: wrong "8" first, then right "7": the tie goes to the first answer, wrong.
      rep("q1", 0, false),
      rep("q1", 1, true),
      rep("q2", 0, true),
      rep("q2", 1, true),
      rep("q3", 0, false),
      rep("q3", 1, false),
    ];
    const [row] = summarise(results, ["single:A"], { repeats: 2 });
    expect(row!.accuracy).toBeCloseTo(0.5, 12); // (1/2 + 1 + 0) / 3
    expect(row!.passAtK).toBeCloseTo(2 / 3, 12); // q1 1, q2 1, q3 0
    expect(row!.majAtK).toBeCloseTo(1 / 3, 12); // q1 0, q2 1, q3 0
    expect(row).toMatchObject({ questions: 3, samples: 6, k: 2 });
    const text = summaryTable([row!]);
    expect(text.split("\n")[0]).toMatch(/acc %\s+95% CI\s+± s\.e\.\s+pass@2\s+maj@2\s+questions/);
    expect(text.split("\n")[1]).toMatch(/^single:A\s+50\.0\s+\S+\s+\S+\s+66\.7\s+33\.3\s+3\s+6\s/);
  });

  it("counts a key written twice by its last line", () => {
    const retried = [
      r("single:A", "q1", null, { error: ERROR }),
      r("single:A", "q1", true),
      r("single:A", "q2", false),
    ];
    expect(summarise(retried, ["single:A"])[0]).toMatchObject({
      samples: 2,
      errors: 0,
      accuracy: 0.5,
    });
  });

  it("groups by category: accuracy, cost and calls per question", () => {
    const cats = analyse(EV, RESULTS).categories;
    const get = (c: string, s: string) => cats.find((x) => x.category === c && x.strategy === s);
    expect(cats.map((x) => x.category)).toEqual(["algebra", "algebra", "geometry", "geometry"]);
    expect(get("algebra", "conductor")).toMatchObject({
      questions: 2,
      accuracy: 1,
      callsPerQuestion: 3,
    });
    expect(get("geometry", "conductor")).toMatchObject({ questions: 2, accuracy: 0.5 });
    expect(get("algebra", "single:A")).toMatchObject({ questions: 2, accuracy: 0.5 });
    expect(get("geometry", "single:A")!.costPerQuestion).toBeCloseTo(0.01, 12);
  });

  it("says which scorer versions gave the verdicts, and when they are mixed", () => {
    const recorded = { id: "contains", version: 2 };
    const mixed = [
      r("single:A", "q1", true, { scoredBy: { id: "contains", version: 2 } }),
      r("single:A", "q2", true, { scoredBy: undefined }),
      r("single:A", "q3", true, { scoredBy: { id: "contains", version: 1 } }),
      r("single:A", "q4", null, { error: ERROR, scoredBy: undefined }),
    ];
    const uses = scorerUse(mixed, recorded);
    expect(uses).toEqual([
      { id: "contains", version: 2, results: 1, assumed: false },
      { id: "contains", version: 2, results: 1, assumed: true },
      { id: "contains", version: 1, results: 1, assumed: false },
    ]);
    expect(mixedScorers(uses)).toBe(true);
    expect(scorerNote(uses)).toBe(
      "Mixed scorers: contains v2 (1), contains v2 (1, as recorded), contains v1 (1). Re-score to put every verdict on one version.",
    );
    const one = scorerUse(mixed.slice(0, 2), recorded);
    expect(mixedScorers(one)).toBe(false);
    expect(scorerNote(one)).toMatch(/^Scored by contains v2/);
  });

  it("shows the calls the response cache answered, and the money saved, only when there were any", () => {
    const cached = [
      r("single:A", "q1", true, { cost: 0, cachedCalls: 1, savedCost: 0.01 }),
      r("single:A", "q2", false, { cost: 0, cachedCalls: 1, savedCost: 0.0125 }),
      r("single:A", "q3", false),
    ];
    const [row] = summarise(cached, ["single:A"]);
    expect(row).toMatchObject({ cachedCalls: 2 });
    expect(row!.savedCost).toBeCloseTo(0.0225, 12);
    const [head, line] = summaryTable([row!]).split("\n");
    expect(head).toMatch(/calls\/q\s+cached\s+saved \$\s+p50 ms/);
    expect(line).toMatch(/\s2\s+0\.02250\s/);
    const [plain] = summarise(cached.slice(2), ["single:A"]);
    expect(summaryTable([plain!])).not.toMatch(/cached|saved/);
    const csv = reportCsv(analyse(EV, cached)).trim().split("\n");
    const cols = csv[0]!.split(",");
    const a = csv.find((l) => l.startsWith("single:A"))!.split(",");
    expect(a[cols.indexOf("cachedCalls")]).toBe("2");
    expect(Number(a[cols.indexOf("savedCost")])).toBeCloseTo(0.0225, 12);
  });

  it("leaves an unpriced strategy's cost cells empty in the report CSV, never 0", () => {
    const unpriced = [
      r("single:A", "q1", true, { cost: 0, unpricedCalls: 1 }),
      r("single:A", "q2", false, { cost: 0, unpricedCalls: 1 }),
      r("conductor", "q1", true),
      r("conductor", "q2", true),
    ];
    const csv = reportCsv(analyse(EV, unpriced)).trim().split("\n");
    const cols = csv[0]!.split(",");
    const row = (s: string) => csv.find((l) => l.startsWith(s))!.split(",");
    for (const c of ["costPerQuestion", "costLo", "costHi"])
      expect(row("single:A")[cols.indexOf(c)], c).toBe("");
    expect(Number(row("conductor")[cols.indexOf("costPerQuestion")])).toBeCloseTo(0.01, 12);
  });

  it("exports the report as CSV with the comparison beside each strategy", () => {
    const csv = reportCsv(analyse(EV, RESULTS)).trim().split("\n");
    const head = csv[0]!.split(",");
    const a = csv[2]!.split(",");
    expect(a[head.indexOf("strategy")]).toBe("single:A");
    expect(a[head.indexOf("vsConductorP")]).toBe("0.5");
    expect(a[head.indexOf("vsConductorTest")]).toBe("mcnemar");
    expect(a[head.indexOf("bootstrapSeed")]).toBe("5");
    expect(csv[1]!.split(",")[head.indexOf("vsConductorP")]).toBe("");
  });
});
