// `conductor-studio eval --preset humanevalplus|mbppplus --dataset FILE`: EvalPlus's rows in the
// Hub's shape (e2e/fixtures/evalplus, written as EvalPlus's to_original_fmt.py writes its test
// programs), scored end to end against the local test server, then Table 1 over both.
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { chatRequests, cliIt, promptText, runMain } from "../test-support/cli/cli-harness.ts";
import type { Programs } from "../test-support/cli/code-presets.ts";
import { expectRightAndWrong, scriptSolvers } from "../test-support/cli/code-presets.ts";

const FIXTURES = fileURLToPath(new URL("../../e2e/fixtures/evalplus/", import.meta.url));

/** Solver A's programs are right; Solver B's each have a bug that the prompt's example misses. */
const PROGRAMS: Programs = {
  "he-sum": {
    right:
      "def running_sum(numbers):\n    out = []\n    for x in numbers:\n        out.append(x + (out[-1] if out else 0))\n    return out",
    // Rounds through floats: right on small integers, wrong past 2^53.
    wrong:
      "def running_sum(numbers):\n    out = []\n    for x in numbers:\n        out.append(float(x) + (out[-1] if out else 0))\n    return [int(v) if v == int(v) else v for v in out]",
  },
  "he-pair": {
    right: "def min_max(numbers):\n    return min(numbers), max(numbers)",
    wrong: "def min_max(numbers):\n    return int(min(numbers)), int(max(numbers))",
  },
  "mb-similar": {
    // Keyed by the tuples themselves: only right when the arguments arrive as tuples.
    right:
      "_seen = {}\ndef similar_elements(a, b):\n    _seen[a, b] = tuple(x for x in a if x in b)\n    return _seen[a, b]",
    wrong: "def similar_elements(a, b):\n    return (4, 5)",
  },
  "mb-prime": {
    right:
      "def is_not_prime(n):\n    return n < 2 or any(n % d == 0 for d in range(2, int(n ** 0.5) + 1))",
    wrong: "def is_not_prime(n):\n    return n % 2 == 0",
  },
};

describe("conductor-studio eval --preset humanevalplus / mbppplus", { timeout: 120_000 }, () => {
  cliIt(
    "scores right programs right and wrong ones wrong on both presets, then tabulates them",
    async ({ expect, h }) => {
      const config = await scriptSolvers(h, PROGRAMS, /\[([a-z-]+)\]/);
      const outs = await expectRightAndWrong(expect, h, config, FIXTURES, [
        ["humanevalplus", "humanevalplus-sample.jsonl", ["HumanEval/0", "HumanEval/1"]],
        ["mbppplus", "mbppplus-sample.jsonl", ["Mbpp/2", "Mbpp/3"]],
      ]);
      // MBPP+'s prompt shows the first assert, which names the function; HumanEval+'s its signature.
      const prompts = chatRequests(h.server, "solver-a").map(promptText);
      expect(prompts.some((p) => p.includes("assert is_not_prime(2) == False"))).toBe(true);
      expect(prompts.some((p) => p.includes("def min_max(numbers: tuple) -> tuple:"))).toBe(true);
      const table = await runMain(["eval-table", ...outs]);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout.split("\n")[0]).toBe("| Strategy | HumanEval+ | MBPP+ |");
      expect(table.stdout).toMatch(/^\| single:Solver A \| 100\.0 .*\| 100\.0 /m);
      expect(table.stdout).toMatch(/^\| single:Solver B \| 0\.0 .*\| 0\.0 /m);
    },
  );
});
