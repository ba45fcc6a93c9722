import { describe, expect, it } from "vitest";
import { MC_QUESTION } from "../../../test-support/engine/eval/scorers/mc-cases.ts";
import {
  McReasonSchema,
  McRuleSchema,
  lenientReading,
  multipleChoiceScorerV2,
  strictReading,
} from "./mc-v2.ts";
import { MC_V2_CASES } from "../../../test-support/engine/eval/scorers/mc-v2-cases.ts";
import { optionsOf } from "./mc.ts";
import { createScorer, scorerVersions } from "./registry.ts";

const signal = new AbortController().signal;
const item = { question: MC_QUESTION, expected: "C" };
const options = optionsOf(MC_QUESTION);

describe("multiple choice v2", () => {
  it.each(MC_V2_CASES)(
    "%j -> strict %s, lenient %s (%s)",
    async (answer, strict, lenient, rule) => {
      expect(strictReading(answer, "ABCD").letter).toBe(strict);
      const l = lenientReading(answer, options, "ABCD");
      expect(l).toEqual({ letter: lenient, rule });
      expect(McRuleSchema.safeParse(rule).success).toBe(true);
      const s = await multipleChoiceScorerV2("lenient").score(answer, item, signal);
      expect(s.correct).toBe(lenient === "C");
      expect(s.details).toMatchObject({ strictLetter: strict, lenientLetter: lenient, rule });
      const st = await multipleChoiceScorerV2("strict").score(answer, item, signal);
      expect(st.correct).toBe(strict === "C");
    },
  );

  it("says why a verdict is what it is", async () => {
    const score = (a: string) => multipleChoiceScorerV2().score(a, item, signal);
    expect((await score("Answer: C")).reason).toBe("right letter");
    expect((await score("Answer: B")).reason).toBe("wrong letter");
    expect(await score("Answer: B or C")).toMatchObject({
      correct: false,
      reason: "several letters",
    });
    expect(await score("No idea")).toMatchObject({ correct: false, reason: "no letter found" });
    for (const a of ["Answer: C", "Answer: B", "A or B", "No idea"])
      expect(McReasonSchema.safeParse((await score(a)).reason).success).toBe(true);
    expect(
      (await multipleChoiceScorerV2().score("Answer: C", { question: "q" }, signal)).correct,
    ).toBeNull();
  });

  it("is the default mc version, and version 1 stays available", async () => {
    expect(scorerVersions("mc")).toEqual([1, 2, 3]);
    const v3 = createScorer({ id: "mc", options: {} });
    const v2 = createScorer({ id: "mc", options: {}, version: 2 });
    const v1 = createScorer({ id: "mc", options: { mode: "strict" }, version: 1 });
    if (!v3.ok || !v2.ok || !v1.ok) throw new Error("not built");
    expect([v3.scorer.version, v2.scorer.version]).toEqual([3, 2]);
    // version 3 reads a reply that is only a lower-case letter; version 2 kept its verdict
    expect((await v3.scorer.score("c", item, signal)).correct).toBe(true);
    expect((await v2.scorer.score("c", item, signal)).correct).toBe(false);
    expect(v1.scorer.version).toBe(1);
    // version 1 reads the first letter of a hedged line; version 2 refuses it
    expect((await v1.scorer.score("Answer: C or B", item, signal)).correct).toBe(true);
    expect((await v2.scorer.score("Answer: C or B", item, signal)).correct).toBe(false);
  });
});
