import { sampleId } from "./sample-items.ts";
import type { EvalItem } from "./item-schema.ts";

const stdio = (cases: [input: string, output: string][]) =>
  JSON.stringify({ style: "stdio", cases: cases.map(([input, output]) => ({ input, output })) });
const fn = (name: string, cases: [args: unknown[], expected: unknown][]) =>
  JSON.stringify({
    style: "function",
    name,
    cases: cases.map(([args, expected]) => ({ args, expected })),
  });

/**
 * Seven short Python tasks written for this project, scored by running the answer (the "code"
 * scorer): three read standard input and print, four define a function. `tests` is JSON text, as
 * a JSONL or CSV question set carries it.
 */
export const SAMPLE_CODE: EvalItem[] = [
  {
    question:
      "Write a Python program that reads one line of text from standard input and prints it reversed.",
    tests: stdio([
      ["hello\n", "olleh\n"],
      ["Conductor Studio\n", "oidutS rotcudnoC\n"],
    ]),
  },
  {
    question:
      "Write a Python program that reads an integer n on the first line and n integers separated by spaces on the second, and prints the largest of them.",
    tests: stdio([
      ["5\n3 9 -2 9 4\n", "9\n"],
      ["1\n-7\n", "-7\n"],
      ["3\n0 0 0\n", "0\n"],
    ]),
  },
  {
    question:
      'Write a Python program that reads an integer n and prints the numbers 1 to n, one per line, but "Fizz" for multiples of 3, "Buzz" for multiples of 5 and "FizzBuzz" for multiples of both.',
    tests: stdio([
      ["5\n", "1\n2\nFizz\n4\nBuzz\n"],
      ["15\n", "1\n2\nFizz\n4\nBuzz\nFizz\n7\n8\nFizz\nBuzz\n11\nFizz\n13\n14\nFizzBuzz\n"],
    ]),
  },
  {
    question:
      "Write a Python function is_palindrome(s) that returns True when s reads the same backwards once everything but letters and digits is dropped and case is ignored, else False.",
    tests: fn("is_palindrome", [
      [["A man, a plan, a canal: Panama"], true],
      [["conductor"], false],
      [[""], true],
      [["No lemon, no melon"], true],
    ]),
  },
  {
    question:
      "Write a Python function count_vowels(s) that returns how many of the letters a, e, i, o, u (either case) are in s.",
    tests: fn("count_vowels", [
      [["Pyodide"], 3],
      [[""], 0],
      [["AEIOU xyz"], 5],
    ]),
  },
  {
    question:
      "Write a Python class Solution with a method twoSum(self, nums, target) that returns the indices [i, j], i < j, of the two numbers in nums that add up to target (there is exactly one such pair).",
    tests: fn("Solution.twoSum", [
      [
        [[2, 7, 11, 15], 9],
        [0, 1],
      ],
      [
        [[3, 2, 4], 6],
        [1, 2],
      ],
      [
        [[3, 3], 6],
        [0, 1],
      ],
    ]),
  },
  {
    question:
      'Write a Python function run_length(s) that returns the run-length encoding of s: each run of a repeated character as the character followed by the run\'s length, so "aaabcc" gives "a3b1c2".',
    tests: fn("run_length", [
      [["aaabcc"], "a3b1c2"],
      [[""], ""],
      [["zzzzzz"], "z6"],
    ]),
  },
].map((item, i) => ({ id: sampleId("code", i), kind: "code", ...item }));
