/** Realistic model answers to a posed four-choice question; the correct letter is C. */
export const MC_QUESTION =
  "Which planet has the shortest year?\n\nA) Venus\nB) Mars\nC) Mercury\nD) Neptune";

/** [answer, strict letter, lenient letter] */
export const MC_CASES: [string, string | null, string | null][] = [
  ["Mercury orbits closest to the Sun.\nAnswer: C", "C", "C"],
  ["Answer: (C)", "C", "C"],
  ["**Answer: C**", "C", "C"],
  ["Answer: C) Mercury", "C", "C"],
  ["Final answer: C.", "C", "C"],
  ["answer: c", null, null], // lower-case letter is not read as an option by the strict rule
  ["The answer is C.", null, "C"],
  ["The answer is (B) because Mars is red.", null, "B"],
  ["Let me think. A is wrong and D is far out.\nAnswer: C", "C", "C"],
  ["Answer: A\n\nWait, Venus is second. Let me reconsider.\nAnswer: C", "C", "C"],
  ["It's either A or C, I'm not sure.", null, null], // two letters mentioned
  ["Between (A) and (C), I pick (C).", null, null],
  ["Answer: none of the above", null, null],
  ["Answer: B or C", "B", "B"], // the strict line reads its first letter
  ["Both A and D are wrong; Mars and Venus are slower.", null, null],
  ["Answer: Mercury", null, "C"],
  ["Mercury, the innermost planet, has an 88-day year.", null, "C"], // names one option
  ["The innermost planet is the one.\nMercury", null, "C"],
  ["**C**", null, "C"],
  ["I choose **(C)**.", null, "C"],
  ["C", null, "C"],
  ["(C)", null, "C"],
  ["C.", null, "C"],
  ["The correct option is C", null, "C"],
  ["The correct choice is option D.", null, "D"],
  ["\\boxed{C}", "C", "C"],
  ["So the final answer is $\\boxed{B}$", "B", "B"],
  ["<think>Maybe A? No.</think>\nAnswer: C", "C", "C"],
  ["<think>Answer: A</think>The answer is C", null, "C"],
  ["Answer: E", null, null], // not an option of this question
  ["A good approach is to compare orbital periods. Mercury wins.", null, "C"], // "A" is an article
  ["Option (C) is correct: Mercury takes 88 days.", null, "C"],
  ["Answer:C", "C", "C"],
  ["Answer - C", null, "C"],
  ["", null, null],
];
