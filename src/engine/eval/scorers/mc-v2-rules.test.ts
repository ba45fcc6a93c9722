// One test per rule of the multiple-choice cascades (mc-v2.ts), each with the input that tells the
// rule from its nearest weaker form.
import { describe, expect, it } from "vitest";
import { MC_QUESTION } from "../../../test-support/engine/eval/scorers/mc-cases.ts";
import { McReasonSchema, lenientReading, multipleChoiceScorerV2, strictReading } from "./mc-v2.ts";
import { optionsOf } from "./mc.ts";

const signal = new AbortController().signal;
const options = optionsOf(MC_QUESTION);
const strict = (a: string) => strictReading(a, "ABCD");
const lenient = (a: string) => lenientReading(a, options, "ABCD");

describe("strict reading", () => {
  it.each([
    ["Answer: \\text{(C)}", "C"],
    ["Answer: \\text {C}", "C"],
    ["Answer: \\textbf{C}", "C"],
    ["Answer: “C”", "C"],
    ["Answer: ‘C’", "C"],
    ["\\boxed{ C }", "C"],
    ["\\boxed{\\text{C}}", "C"],
    ["\\boxed{(C)}", "C"],
    ["\\boxed{12 C}", null], // a box that is not just a letter
    ["\\boxed{C or D}", null],
    ["Answer: Cats are fast", null], // a word, not a letter
    ["Answer: C OR D", null], // a hedge in capitals
    ["Answer: C and a long reason", "C"], // a lower-case article is no second letter
    ["Answer: C or E", "C"], // E is no option here, so it hedges nothing
    ["الإجابة: أ", "A"],
    ["الإجابة: ب", "B"],
    ["الإجابة: د", "D"],
    ["উত্তর: অ", "A"],
    ["উত্তর: ব", "B"],
    ["উত্তর: ড", "C"],
    ["উত্তর: ঢ", "D"],
  ])("%j -> %s", (answer, letter) => {
    expect(strict(answer).letter).toBe(letter);
  });
  it("names its rule, or none", () => {
    expect(strict("Answer: C").rule).toBe("answer-line");
    expect(strict("\\boxed{C}").rule).toBe("boxed");
    expect(strict("xyz")).toEqual({ letter: null, rule: "none" });
    expect(strict("Answer: B or C")).toEqual({ letter: null, rule: "hedged" });
  });
});

describe("lenient reading", () => {
  it.each([
    // the strict reading, once found, is final (a later phrase does not override it)
    ["Answer: C\nI think it's B", "C", "answer-line"],
    ["Answer: B or C\nI think it's C", null, "hedged"],
    ["Hmm. **C.**", "C", "bold"],
    ["Hmm. **(C)**", "C", "bold"],
    ["Hmm. ** C **", "C", "bold"],
    ["The innermost planet.\n   C   \n\n", "C", "lone-letter"],
    ["Hmm.\nInner planets.\nC", "C", "lone-letter"],
    ["C Mercury", "C", "leading-letter"],
    ["C  Mercury", "C", "leading-letter"],
    ["C, D", null, "hedged"], // a leading letter that hedges
    ["C or D, not sure", null, "hedged"],
    ["A  quick look says C.", "C", "only-letter"], // an article, even before two spaces
    ["I  think C.", "C", "only-letter"],
    ["A or C", null, "hedged"],
  ])("%j -> %s (%s)", (answer, letter, rule) => {
    expect(lenient(answer)).toEqual({ letter, rule });
  });
});

describe("the scorer", () => {
  const item = { question: MC_QUESTION, expected: "C" };
  it("reads letters beyond D when the question lists no options", async () => {
    const r = await multipleChoiceScorerV2().score(
      "Answer: E",
      { question: "q", expected: "E" },
      signal,
    );
    expect(r.correct).toBe(true);
    const five = "Pick.\nA) a\nB) b\nC) c\nD) d\nE) e";
    expect(
      (await multipleChoiceScorerV2().score("Answer: E", { question: five, expected: "E" }, signal))
        .correct,
    ).toBe(true);
  });
  it("leaves an item without one correct letter unscored", async () => {
    for (const expected of [undefined, "", "CD", "xC", "C."]) {
      const r = await multipleChoiceScorerV2().score(
        "Answer: C",
        { question: MC_QUESTION, expected },
        signal,
      );
      expect(r).toMatchObject({ correct: null, extracted: null, reason: "no correct letter" });
    }
    expect(McReasonSchema.safeParse("no correct letter").success).toBe(true);
    expect(
      (
        await multipleChoiceScorerV2().score(
          "Answer: C",
          { question: MC_QUESTION, expected: " c " },
          signal,
        )
      ).correct,
    ).toBe(true);
  });
  it("keeps both readings in details and scores with the mode asked for", async () => {
    const a = "I think it's C";
    const lenient = await multipleChoiceScorerV2().score(a, item, signal);
    expect(lenient).toMatchObject({ correct: true, extracted: "C" });
    expect(lenient.details).toEqual({
      strict: false,
      lenient: true,
      strictLetter: null,
      lenientLetter: "C",
      rule: "phrase",
    });
    const s = await multipleChoiceScorerV2("strict").score(a, item, signal);
    expect(s).toMatchObject({ correct: false, extracted: null, reason: "no letter found" });
    expect(s.details).toMatchObject({ strict: false, lenient: true, rule: "none" });
    const both = await multipleChoiceScorerV2("strict").score("Answer: C", item, signal);
    expect(both.details).toMatchObject({ strict: true, lenient: true });
    const wrong = await multipleChoiceScorerV2().score("Answer: B", item, signal);
    expect(wrong.details).toMatchObject({ strict: false, lenient: false, strictLetter: "B" });
  });
});
