// `conductor-studio eval --preset humaneval|mbpp --dataset FILE`: plain HumanEval's and MBPP's rows in
// the Hub's shape (e2e/fixtures/asserts: openai/openai_humaneval's and google-research-datasets/mbpp's
// columns), whose own assert programs run through the assert proxy, scored end to end against the
// local test server.
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { chatRequests, cliIt, promptText } from "../test-support/cli/cli-harness.ts";
import type { Programs } from "../test-support/cli/code-presets.ts";
import { expectRightAndWrong, scriptSolvers } from "../test-support/cli/code-presets.ts";

const FIXTURES = fileURLToPath(new URL("../../e2e/fixtures/asserts/", import.meta.url));

/** Solver A's programs are right; Solver B's pass the example the question shows, not the asserts. */
const PROGRAMS: Programs = {
  "he-digits": {
    right: "def add_digits(n):\n    return sum(int(c) for c in str(n))",
    // Right on 123, wrong from four digits on (check's 9999).
    wrong: "def add_digits(n):\n    return sum(int(c) for c in str(n)[:3])",
  },
  "he-evens": {
    right:
      "from typing import List\n\ndef evens(numbers: List[int]) -> List[int]:\n    return [x for x in numbers if x % 2 == 0]",
    wrong: "def evens(numbers):\n    return [x for x in numbers if x % 2 == 0 and x > 0]",
  },
  "mb-occ": {
    right:
      "def remove_Occ(s, ch):\n    i = s.find(ch)\n    if i >= 0:\n        s = s[:i] + s[i + 1:]\n    j = s.rfind(ch)\n    if j >= 0:\n        s = s[:j] + s[j + 1:]\n    return s",
    wrong: 'def remove_Occ(s, ch):\n    return s.replace(ch, "", 1)',
  },
  "mb-sort": {
    right: "def sort_matrix(M):\n    return sorted(M, key=sum)",
    // Sorted as lists, not by row sums: right on the first two asserts, wrong on the third.
    wrong: "def sort_matrix(M):\n    return sorted(M)",
  },
};

describe(
  "conductor-studio eval --preset humaneval / mbpp (assert proxy)",
  { timeout: 120_000 },
  () => {
    cliIt(
      "scores a right function right and a wrong one wrong by the rows' own asserts",
      async ({ expect, h }) => {
        const config = await scriptSolvers(h, PROGRAMS, /\[((?:he|mb)-[a-z]+)\]/);
        await expectRightAndWrong(expect, h, config, FIXTURES, [
          ["humaneval", "humaneval-sample.jsonl", ["HumanEval/0", "HumanEval/1"]],
          ["mbpp", "mbpp-sample.jsonl", ["mbpp/11", "mbpp/12"]],
        ]);
        // MBPP's question shows its asserts, as lm-evaluation-harness poses it; HumanEval's its prompt.
        const prompts = chatRequests(h.server, "solver-a").map(promptText);
        expect(prompts.some((p) => p.includes('assert remove_Occ("hello","l") == "heo"'))).toBe(
          true,
        );
        expect(prompts.some((p) => p.includes("def evens(numbers: List[int]) -> List[int]:"))).toBe(
          true,
        );
        // The asserts themselves never reach a worker: HumanEval's check() is not in any prompt.
        expect(prompts.some((p) => p.includes("def check(candidate)"))).toBe(false);
      },
    );
  },
);
