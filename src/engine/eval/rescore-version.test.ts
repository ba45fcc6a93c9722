// A scorer version bump: stored verdicts keep the version that gave them until they are re-scored,
// and the diff of the stored and the re-scored results names the items the new version flips.
import { describe, expect, it } from "vitest";
import { diffEvaluations, diffText } from "./diff.ts";
import { line } from "../../test-support/engine/eval/eval-results.ts";
import { rescoreResults } from "./rescore.ts";
import { evaluation, worker } from "../../test-support/engine/eval/eval-runner.ts";
import { createScorer } from "./scorers/registry.ts";

const built = (version: number, profile?: string) => {
  const made = createScorer({ id: "math", options: {}, version, profile });
  if (!made.ok) throw new Error(made.message);
  return made.scorer;
};

describe("math v2 -> v3", () => {
  const answers: [string, string, string][] = [
    ["q1", "\\boxed{[42]}", "42"], // bracketed: wrong in v2, right in v3
    ["q2", "\\boxed{3:00 P.M.}", "15:00"], // a time: the same
    ["q3", "\\boxed{7}", "7"], // right in both
    ["q4", "\\boxed{8}", "7"], // wrong in both
  ];
  const signal = new AbortController().signal;
  const ev = evaluation([worker("w")], { scorer: { id: "math", options: {}, version: 2 } });

  it("keeps v2's verdicts until re-scored, and the diff lists the flips with both scorers", async () => {
    const stored = answers.map(([item, answer, expected]) =>
      line("single:w", item, null, "a", { answer, expected }),
    );
    const v2 = await rescoreResults({ evaluation: ev, results: stored, scorer: built(2), signal });
    expect(v2.results.map((r) => [r.correct, r.scoredBy])).toEqual(
      Array.from({ length: 4 }, (_, i) => [i === 2, { id: "math", version: 2 }]),
    );
    const v3 = await rescoreResults({
      evaluation: ev,
      results: v2.results,
      scorer: built(3),
      signal,
    });
    expect(v3.changed).toBe(2);
    expect(v3.results[0]!.scoredBy).toEqual({ id: "math", version: 3, profile: "default" });
    const d = diffEvaluations(v2.results, v3.results);
    expect(d.flipped.map((f) => [f.item, f.flip])).toEqual([
      ["q1", "gained"],
      ["q2", "gained"],
    ]);
    expect([d.scorersA, d.scorersB]).toEqual([["math v2"], ["math v3 (default)"]]);
    const text = diffText(d, { a: "old.jsonl", b: "new.jsonl" });
    expect(text).toContain("A: old.jsonl (scored by math v2)");
    expect(text).toContain("B: new.jsonl (scored by math v3 (default))");
    // a profile is a scorer too: minerva flips the bracketed and the time answers back
    const minerva = await rescoreResults({
      evaluation: ev,
      results: v3.results,
      scorer: built(3, "minerva"),
      signal,
    });
    expect(diffEvaluations(v3.results, minerva.results).flipped.map((f) => f.item)).toEqual([
      "q1",
      "q2",
    ]);
  });
});
