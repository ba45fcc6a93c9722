// The answer extraction shared by the version-1 scorers and multiple choice (extract.ts) on its own:
// what each marker yields, the last one winning, and reasoning never counting.
import { describe, expect, it } from "vitest";
import { finalAnswer, lastAnswerLine, lastAnswerTag, lastBoxed, stripThinking } from "./extract.ts";

/** Each extractor by name, with [text, what it gives] pairs. */
const EXTRACTORS: [string, (text: string) => string | null, [string, string | null][]][] = [
  [
    "stripThinking",
    stripThinking,
    [
      ["<think>a</think>b", "b"],
      ["<THINK>a</THINK>b", "b"],
      ["<think>a\nb</think>c", "c"],
      ["<think>an unclosed block runs to the end", ""],
      ["x<think>1</think>y<think>2</think>z", "xyz"],
    ],
  ],
  [
    "lastBoxed",
    lastBoxed,
    [
      ["\\boxed{1} \\boxed{2}", "2"],
      ["\\boxed{a{b}}", "a{b}"],
      ["\\fbox{3}", "3"],
      ["\\boxed {4}", "4"],
      ["\\boxed{4} \\boxed{5", "4"], // an unclosed box is none
      ["none", null],
    ],
  ],
  [
    "lastAnswerTag",
    lastAnswerTag,
    [
      ["<answer> 6 </answer>", "6"],
      ["<ANSWER>7</ANSWER>", "7"],
      ["<answer>1</answer><answer>2</answer>", "2"],
      ["<answer>\n8\n</answer>", "8"],
      ["x", null],
    ],
  ],
  [
    "lastAnswerLine",
    lastAnswerLine,
    [
      ["Answer: 5", "5"],
      ["answer:5", "5"],
      ["  > **Final Answer:** 7 ", "7"],
      ["The answer is: 8", "8"],
      ["The  final  answer  is : 8", "8"],
      ["Answer: **9**", "9"],
      ["Answer:   ", null],
      ["Answer: 1\nAnswer: 2", "2"],
      ["x\nAnswer：3", "3"],
      ["Answer: 3 \nthen more", "3"],
      ["So the answer: 4", null], // the label opens its line
    ],
  ],
  [
    "finalAnswer",
    finalAnswer,
    [
      ["<think>\\boxed{1}</think>\\boxed{2}", "2"],
      ["<think>\\boxed{1}</think>no box", null],
      ["<answer>3</answer> Answer: 4", "3"],
      ["\\boxed{5} <answer>3</answer>", "5"],
      ["Answer: 5", "5"],
      ["nothing", null],
    ],
  ],
];

describe("answer extraction", () => {
  for (const [name, extract, cases] of EXTRACTORS) {
    it.each(cases)(`${name}(%j) is %j`, (text, want) => {
      expect(extract(text)).toBe(want);
    });
  }
});
