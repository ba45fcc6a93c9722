// findMathAnswer and referenceAnswer (math-extract.ts) on their own: where each kind of reply
// puts its answer, in Math-Verify's order of priority, with the text and the rule that found it.
import { describe, expect, it } from "vitest";
import type { FoundAnswer } from "./math-extract.ts";
import { MathExtractionSchema, findMathAnswer, referenceAnswer } from "./math-extract.ts";

/**
 * Replies whose answer a reference gives up the same way: a final-answer sentence, boxes, tags, an
 * "Answer:" line, reasoning left out. Both findMathAnswer and referenceAnswer must read each one so.
 */
const READ_ALIKE: [string, FoundAnswer][] = [
  ["The final answer is $5$. I hope it is correct.", { text: "5", how: "final-answer" }],
  ["The final answer is: 7. I hope it is correct.", { text: "7", how: "final-answer" }],
  ["The final answer is $\\boxed{8}$. I hope it is correct.", { text: "8", how: "boxed" }],
  ['The final answer is "9". I hope it is correct.', { text: "9", how: "final-answer" }],
  ["The final answer is 4. I hope it is correct. Then \\boxed{5}", { text: "5", how: "boxed" }],
  ["So \\boxed{1}, \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
  [
    "We get \\boxed{1} \\quad \\text{and} \\quad \\boxed{2}",
    { text: "\\{1, 2\\}", how: "boxed-group" },
  ],
  ["\\boxed{1} and then \\boxed{42}", { text: "42", how: "boxed" }],
  ["\\boxed{1} or \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
  ["\\boxed{1}\\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
  ["\\fbox{6}", { text: "6", how: "boxed" }],
  ["\\boxed {7}", { text: "7", how: "boxed" }],
  ["\\boxed{\\frac{1}{2}", { text: "\\frac{1}{2}", how: "boxed" }],
  ["\\boxed{a{b}c}", { text: "a{b}c", how: "boxed" }],
  ["<answer>1</answer> then <answer>$13$</answer>", { text: "13", how: "answer-tag" }],
  ["$[0,1)$", { text: "[0,1)", how: "whole" }],
  [
    "the final answer, after all that, is $\\frac{3}{4}$",
    { text: "\\frac{3}{4}", how: "final-answer" },
  ],
  ["Answer: the total is 22 apples and 3 pears", { text: "22", how: "answer-line" }],
  ["<think>The answer is 99</think> so the result is 7", { text: "7", how: "last-number" }],
  ["The final answer is $\\boxed{3}$ and 4. I hope", { text: "3", how: "boxed" }],
  ["\\boxed{1}, and \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
  ["\\boxed{1}$ and $\\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
  ["\\boxed{1} the papers and \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
  [
    "\\boxed{1} first this very long sentence of more than thirty characters and \\boxed{2}",
    { text: "2", how: "boxed" },
  ],
  ["\\boxed{1} \\textnormal{or} \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
];

describe("findMathAnswer", () => {
  it.each<[string, FoundAnswer | null]>([
    ...READ_ALIKE,
    [
      "\\boxed{3} and later the final answer is 4. I hope it is correct.",
      { text: "4", how: "final-answer" },
    ],
    ["<answer>12</answer>", { text: "12", how: "answer-tag" }],
    ["x^2 + 2x + 1", { text: "x^2 + 2x + 1", how: "whole" }],
    ["The final answer for part a is 15.", { text: "15", how: "final-answer" }],
    ["The final answer is 1,234.5 dollars", { text: "1,234.5", how: "final-answer" }],
    ["Answer: 16", { text: "16", how: "answer-line" }],
    ["Reasoning here.\nAnswer: 17.", { text: "17", how: "answer-line" }],
    ["**Answer:** 18", { text: "18", how: "answer-line" }],
    ["Réponse : 19", { text: "19", how: "answer-line" }],
    ["Respuesta: 20", { text: "20", how: "answer-line" }],
    ["答案：21", { text: "21", how: "answer-line" }],
    ["Answer: we get $x = 23$ here", { text: "23", how: "answer-line" }],
    ["Answer: none of these", null],
    ["The answer is \\( (9+1) \\) clearly", { text: "(9+1)", how: "answer-line" }],
    ["Some text $4$ and then 5", { text: "5", how: "last-number" }],
    ["Some text 5 and then $6$", { text: "6", how: "latex" }],
    ["It is 2. Really 3.", { text: "3", how: "last-number" }],
    ["The interval is (3, 4) here", { text: "(3, 4)", how: "last-number" }],
    ["Values [0,1) and so on", { text: "[0,1)", how: "last-number" }],
    ["We got 1,000 people", { text: "1,000", how: "last-number" }],
    ["Price was 3.50 today", { text: "3.50", how: "last-number" }],
    ["Ratio 13/28 found", { text: "13/28", how: "last-number" }],
    ["About 75% done", { text: "75%", how: "last-number" }],
    ["Rate \\frac{2}{5} ok", { text: "\\frac{2}{5}", how: "last-number" }],
    ["It is -.5 now", { text: "-.5", how: "last-number" }],
    ["version 2.0.1 and AZYUK2A", null],
    ["no numbers at all here", null],
    ["The value is 10,5 and 3", { text: "3", how: "last-number" }],
    ["FINAL ANSWER IS 12. I hope", { text: "12", how: "final-answer" }],
    ["Answer: $5$ and $6$", { text: "5, 6", how: "answer-line" }],
    ["Answer: $5$, $6$.", { text: "5, 6", how: "answer-line" }],
    ["Answer: $5$ then $6$", { text: "5", how: "answer-line" }],
    ["> Answer: 30", { text: "30", how: "answer-line" }],
    ["The final answer is $$\\frac{1}{2}$$", { text: "\\frac{1}{2}", how: "final-answer" }],
    ["the final answer is \\(7\\)", { text: "7", how: "final-answer" }],
    ["The final answer is -3%", { text: "-3%", how: "final-answer" }],
    ["Answer: x^2", { text: "x^2", how: "answer-line" }],
    ["Answer: $\\pi$ radians", { text: "\\pi", how: "answer-line" }],
    ["Answer: about \\(\\frac{1}{3}\\) of it", { text: "\\frac{1}{3}", how: "answer-line" }],
    ["answer: \\[ 42 \\] done", { text: "42", how: "answer-line" }],
    ["Here $1$ and $2$", { text: "2", how: "latex" }],
    ["Number 12a3 then 5", { text: "5", how: "last-number" }],
    ["It was 1.5.", { text: "1.5", how: "last-number" }],
    ["value 0,25", { text: "0,25", how: "last-number" }],
    ["It is (-\\infty, 2] here", { text: "(-\\infty, 2]", how: "last-number" }],
    ["So (1, 2) and later 3", { text: "3", how: "last-number" }],
    // "The final answer is X. I hope it is correct." (Math-Verify's first pattern), however spaced
    ["The final answer is x + 1. I hope it is correct.", { text: "x + 1", how: "final-answer" }],
    ["The final answer is x + 1 I hope it is correct.", { text: "x + 1", how: "final-answer" }],
    ["The final answer is x + 1.  I hope it is correct.", { text: "x + 1", how: "final-answer" }],
    ["The final answer is:x+1. I hope it is correct.", { text: "x+1", how: "final-answer" }],
    ["The final answer is:12. I hope it is correct.", { text: "12", how: "final-answer" }],
    ['The final answer is "9" . I hope it is correct.', { text: "9", how: "final-answer" }],
    ['The final answer is \\"9\\". I hope it is correct.', { text: "9", how: "final-answer" }],
    [
      'The final answer is "3" and "4". I hope it is correct.',
      { text: "3 and 4", how: "final-answer" },
    ],
    ["The final answer is $5$. I hope it is correct.", { text: "5", how: "final-answer" }],
    // a span with more after it is not the whole answer: "$x$ = 5" assigns 5
    [
      "The final answer is $x$ = 5. I hope it is correct.",
      { text: "$x$ = 5", how: "final-answer" },
    ],
    // "final answer ... is X": a number, or a $, $$ or \( span
    ["The final answer is:5", { text: "5", how: "final-answer" }],
    ["The final answer is 3.14 meters", { text: "3.14", how: "final-answer" }],
    ["The final answer is $$x + 1$$", { text: "x + 1", how: "final-answer" }],
    ["the final answer is \\(x + 1\\)", { text: "x + 1", how: "final-answer" }],
    // boxes joined by "and" written with \text, spaced or not; "and then" does not join
    ["\\boxed{1} \\text {and} \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
    ["\\boxed{1}\\, \\text{and}\\, \\boxed{2}", { text: "\\{1, 2\\}", how: "boxed-group" }],
    ["\\boxed{1} \\text{and then} \\boxed{2}", { text: "2", how: "boxed" }],
    // an <answer> tag: its text, its spans joined by spaces or "and"; an empty tag is no answer
    ["<answer>x + 1</answer>", { text: "x + 1", how: "answer-tag" }],
    ["<answer>$1$ $2$</answer>", { text: "1, 2", how: "answer-tag" }],
    ["<answer>$5$.</answer>", { text: "5", how: "answer-tag" }],
    ["<answer>$5$ then $6$</answer>", { text: "$5$ then $6$", how: "answer-tag" }],
    ["<answer> </answer> The result is 4", { text: "4", how: "last-number" }],
    // reasoning is never the answer; an empty reply has none
    ["<think>\\boxed{9}</think>No idea.", null],
    ["", null],
    ["   ", null],
    // a bare formula is its own answer; a long or multi-line working is not, its last number is
    ["\\frac{1}{2}", { text: "\\frac{1}{2}", how: "whole" }],
    ["T_{max} = 40", { text: "T_{max} = 40", how: "whole" }],
    ["Origin (0, 0)", { text: "(0, 0)", how: "last-number" }],
    ["12 thousand", { text: "12", how: "last-number" }],
    ["2 + 2 = 4\n4 * 3 = 12", { text: "12", how: "last-number" }],
    [
      "3 \\times 4 = 12, 12 + 5 = 17, 17 \\times 2 = 34, 34 - 6 = 28, 28 + 10 = 38, 38 / 2 = 19",
      { text: "19", how: "last-number" },
    ],
    // "Answer:" lines: "The answer:", "Final answer:", French and Spanish forms, bold, a space before
    // the colon, "Answer is:"; trailing stars and dots are not part of the answer
    ["The answer: 5", { text: "5", how: "answer-line" }],
    ["Final answer: 5", { text: "5", how: "answer-line" }],
    ["The  final  answer: 5", { text: "5", how: "answer-line" }],
    ["Réponse finale : 5", { text: "5", how: "answer-line" }],
    ["Réponse  finale : 5", { text: "5", how: "answer-line" }],
    ["Respuesta final: 5", { text: "5", how: "answer-line" }],
    ["Respuesta  final: 5", { text: "5", how: "answer-line" }],
    ["**Réponse** : 5", { text: "5", how: "answer-line" }],
    ["Answer is: 42", { text: "42", how: "answer-line" }],
    ["Answer **: 42", { text: "42", how: "answer-line" }],
    ["Answer: **18**", { text: "18", how: "answer-line" }],
    ["Answer: x + 1.", { text: "x + 1", how: "answer-line" }],
    ["Answer: 40...", { text: "40", how: "answer-line" }],
    // prose after the label and no number in it: its last span with a digit
    [
      "Answer: after simplifying both of the sides of the equation we get $x_1$ for $y$",
      { text: "x_1", how: "answer-line" },
    ],
    // numbers in prose: fractions, thousands, decimal commas, leading dots; none inside a word
    ["Rate \\dfrac{2}{5} ok", { text: "\\dfrac{2}{5}", how: "last-number" }],
    ["Rate \\frac{12}{25} ok", { text: "\\frac{12}{25}", how: "last-number" }],
    ["We got 12,000 people", { text: "12,000", how: "last-number" }],
    ["We got 1,000,000 people", { text: "1,000,000", how: "last-number" }],
    ["It costs 0,25 euros", { text: "0,25", how: "last-number" }],
    ["It is .25 now", { text: ".25", how: "last-number" }],
    ["It is .5 now", { text: ".5", how: "last-number" }],
    ["Ticket 4XB7Z", null],
    // a pair, triple or interval in prose, spaced or not, with signs and decimals
    ["The point ( 3 , 4 ) here", { text: "( 3 , 4 )", how: "last-number" }],
    ["The point (12, 34) here", { text: "(12, 34)", how: "last-number" }],
    ["The point (1.25, 3.75) here", { text: "(1.25, 3.75)", how: "last-number" }],
    ["The point (1, 2, 3) here", { text: "(1, 2, 3)", how: "last-number" }],
    ["The point (3, -4) here", { text: "(3, -4)", how: "last-number" }],
    ["The domain is (-\\infty, \\infty)", { text: "(-\\infty, \\infty)", how: "last-number" }],
    ["<answer>or</answer>", { text: "or", how: "answer-tag" }],
    ["Answer: **x + 1**", { text: "x + 1", how: "answer-line" }],
  ])("%j gives %j", (reply, want) => {
    const found = findMathAnswer(reply);
    expect(found).toEqual(want);
    if (found) expect(MathExtractionSchema.parse(found.how)).toBe(found.how);
  });
});

describe("referenceAnswer", () => {
  it.each<[string, FoundAnswer]>([
    ...READ_ALIKE,
    // a reference takes its first box, not a later final-answer sentence
    [
      "\\boxed{3} and later the final answer is 4. I hope it is correct.",
      { text: "3", how: "boxed" },
    ],
  ])("%j gives %j", (reference, want) => {
    expect(referenceAnswer(reference)).toEqual(want);
  });

  it("takes a short reference, or one without a marker, whole", () => {
    expect(referenceAnswer("  Answer: 16 ")).toEqual({ text: "Answer: 16", how: "whole" });
    expect(referenceAnswer("$5$")).toEqual({ text: "5", how: "whole" });
    const prose = "a long reference written in words only, with no number or formula anywhere";
    expect(referenceAnswer(prose)).toEqual({ text: prose, how: "whole" });
  });
});
