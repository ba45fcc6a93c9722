import { describe, expect, it } from "vitest";
import { diffEvaluations, diffText } from "./diff.ts";
import { line, lines } from "../../test-support/engine/eval/eval-results.ts";

describe("evaluation diff", () => {
  // A: q1..q4 right on 2; B: q1..q4 right on 4 (q3, q4 gained), conductor q2 lost.
  const A = lines("a", {
    "single:w": { q1: true, q2: true, q3: false, q4: false },
    conductor: { q1: true, q2: true },
    moa: { q1: true },
  });
  const B = lines("b", {
    "single:w": { q1: true, q2: true, q3: true, q4: true },
    conductor: { q1: true, q2: false },
    chain: { q1: true },
  });

  it("gives each shared strategy's accuracies and the paired change B - A", () => {
    const d = diffEvaluations(A, B, { seed: 3 });
    expect(d.strategies.map((s) => s.strategy)).toEqual(["single:w", "conductor"]);
    const w = d.strategies[0]!;
    expect([w.accuracyA, w.accuracyB]).toEqual([0.5, 1]);
    // 2 discordant questions, both B's: McNemar p = 2 * 1/4.
    expect(w.change).toMatchObject({
      questions: 4,
      test: "mcnemar",
      discordant: { aOnly: 2, bOnly: 0 },
      p: 0.5,
    });
    expect(w.change!.difference).toBeCloseTo(0.5, 12);
    expect(d.strategies[1]!.change!.difference).toBeCloseTo(-0.5, 12);
    expect(d.onlyA).toEqual(["moa"]);
    expect(d.onlyB).toEqual(["chain"]);
    expect(d.bootstrap.seed).toBe(3);
  });

  it("lists the questions that flipped, with the runs on both sides", () => {
    const d = diffEvaluations(A, B);
    expect(d.flipped).toEqual([
      {
        item: "q3",
        strategy: "single:w",
        flip: "gained",
        a: 0,
        b: 1,
        runIdsA: ["a-single:w-q3-0"],
        runIdsB: ["b-single:w-q3-0"],
      },
      expect.objectContaining({ item: "q4", flip: "gained" }),
      expect.objectContaining({ item: "q2", strategy: "conductor", flip: "lost" }),
    ]);
    const text = diffText(d, { a: "a.jsonl", b: "b.jsonl" });
    expect(text).toMatch(/^single:w\s+50\.0\s+100\.0\s+\+50\.0\s+\S+ to \S+\s+0\.500\s+4$/m);
    expect(text).toContain("3 question(s) flipped:");
    expect(text).toContain(
      "  q2  conductor: right -> wrong  (A runs a-conductor-q2-0; B runs b-conductor-q2-0)",
    );
    expect(text).toContain("Only in A (not compared): moa");
  });

  it("leaves out errored and unscored questions, and marks a partial change with repeats", () => {
    const err = { stage: "worker" as const, code: "server", message: "500" };
    const a = [
      line("s", "q1", true, "a", { repeat: 0 }),
      line("s", "q1", true, "a", { repeat: 1 }),
      line("s", "q2", true, "a"),
      line("s", "q3", null, "a"),
    ];
    const b = [
      line("s", "q1", true, "b", { repeat: 0 }),
      line("s", "q1", false, "b", { repeat: 1 }),
      line("s", "q2", null, "b", { error: err }),
      line("s", "q3", true, "b"),
    ];
    const d = diffEvaluations(a, b);
    expect(d.flipped).toEqual([
      expect.objectContaining({ item: "q1", flip: "changed", a: 1, b: 0.5 }),
    ]);
    expect(d.strategies[0]!.change).toMatchObject({ questions: 1, test: "paired-bootstrap" });
    expect(diffText(d, { a: "a", b: "b" })).toContain("q1  s: right -> 50%");
  });
});
