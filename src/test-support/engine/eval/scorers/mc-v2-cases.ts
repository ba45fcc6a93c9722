/**
 * Replies to the four-choice question of `mc.cases.ts` (the correct letter is C), each with the
 * letter the strict and the lenient cascade of version 2 read, and the rule that read it.
 */
export const MC_V2_CASES: [string, string | null, string | null, string][] = [
  // the "Answer: X" line, in its forms and languages
  ["Mercury orbits closest.\nAnswer: C", "C", "C", "answer-line"],
  ['Answer: "C"', "C", "C", "answer-line"],
  ["Answer: 'C'", "C", "C", "answer-line"],
  ["Answer: (C)", "C", "C", "answer-line"],
  ["Answer: [C]", "C", "C", "answer-line"],
  ["**Answer: C**", "C", "C", "answer-line"],
  ["Answer: $C$", "C", "C", "answer-line"],
  ["ANSWER: C", "C", "C", "answer-line"],
  ["Respuesta: C", "C", "C", "answer-line"],
  ["Réponse : C", "C", "C", "answer-line"],
  ["答案：C", "C", "C", "answer-line"],
  ["答案：Ｃ", "C", "C", "answer-line"],
  ["الإجابة: ج", "C", "C", "answer-line"],
  ["Answer: A\nWait, Venus is second.\nAnswer: C", "C", "C", "answer-line"], // the last line wins
  ["answer: c", null, null, "none"], // a lower-case letter names no option
  ["Answer: E", null, null, "none"], // not an option of this question
  ["\\boxed{C}", "C", "C", "boxed"],
  ["So the final answer is $\\boxed{\\text{(C)}}$", "C", "C", "boxed"],
  // hedges name several letters: no letter, in either cascade
  ["Answer: B or C", null, null, "hedged"],
  ["Answer: A, C", null, null, "hedged"],
  ["The answer is A or C.", null, null, "hedged"],
  ["It's either A or C, I'm not sure.", null, null, "hedged"],
  // phrases
  ["The answer is C.", null, "C", "phrase"],
  ["The answer is for sure C, it can't be A or B", null, "C", "phrase"],
  ["I think it's C", null, "C", "phrase"],
  ["Let me think. It's not A, therefore I think it's C", null, "C", "phrase"],
  ["The correct answer is (C) Mercury.", null, "C", "phrase"],
  ["la respuesta es C", null, "C", "phrase"],
  ["réponse est C non A", null, "C", "phrase"],
  ["Option (C) is correct: Mercury takes 88 days.", null, "C", "phrase"],
  // bold, a leading letter, a lone letter, an option's text, the only letter named
  ["I choose **C**.", null, "C", "phrase"],
  ["Hmm, tough one. **C**", null, "C", "bold"],
  ["C. Mercury, as it is closest to the Sun", null, "C", "leading-letter"],
  ["(C) Mercury", null, "C", "leading-letter"],
  ["C。不是 A", null, "C", "leading-letter"],
  ["C不是 A", null, "C", "leading-letter"],
  ["The innermost planet.\nC", null, "C", "lone-letter"],
  ["The innermost planet is the one.\nMercury", null, "C", "option-text"],
  ["Because C is closest, it is quickest.", null, "C", "only-letter"],
  ["A good approach is to compare orbital periods: C wins.", null, "C", "only-letter"],
  ["I cannot tell.", null, null, "none"],
  ["", null, null, "none"],
];
